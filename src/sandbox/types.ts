// What the sandbox is for this process: bubblewrap in a mode, or none and why.

import type { SandboxMode } from "../config/config.ts";

/** The modes that confine commands (full-access does not). */
export type ConfinedMode = Exclude<SandboxMode, "full-access">;

export type SandboxState =
  | { kind: "bwrap"; mode: ConfinedMode; network: boolean /** Absolute path of the bwrap to run. */; bwrap: string }
  | {
      kind: "none";
      mode: SandboxMode;
      /** Why commands run unconfined (full-access, or what failed). */
      reason: string;
    };

/** One line for /status, doctor and the status line. */
export function describeSandbox(state: SandboxState): string {
  if (state.kind === "bwrap") return `bwrap, ${state.mode}, ${state.network ? "network allowed" : "no network"}`;
  if (state.mode === "full-access") return "off (full-access): commands run unconfined";
  return `unavailable (${state.reason}): commands run unconfined, the permission policy fails closed`;
}

/** Whether commands really run inside the OS sandbox (what the permission policy relies on). */
export function isSandboxed(state: SandboxState): boolean {
  return state.kind === "bwrap";
}

/** The one warning line a session gives when commands run unconfined; null when they do not. */
export function sandboxWarning(state: SandboxState): string | null {
  if (state.kind === "bwrap") return null;
  if (state.mode === "full-access") {
    return "sandbox off (--sandbox full-access): commands run with your full access to files and network";
  }
  return (
    `no OS sandbox for commands (${state.reason}): they run unconfined, ` +
    "and every command the permission policy cannot prove harmless asks"
  );
}
