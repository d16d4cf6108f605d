// What guards the session, for the status line (always shown), and the Shift+Tab cycle of
// permission modes. Pure.

import type { PermissionMode } from "../../config/config.ts";
import type { SafetyPart } from "../../render/status-line.ts";
import type { SandboxState } from "../../sandbox/types.ts";

/** The status line's safety parts: the permission mode, then where commands run. */
export function safetyParts(mode: PermissionMode, sandbox: SandboxState | undefined): SafetyPart[] {
  const parts: SafetyPart[] = [{ text: mode, danger: mode === "bypass" }];
  if (!sandbox) return parts;
  // workspace-write (the default) is plain "sandboxed": the line has little room.
  if (sandbox.kind === "bwrap") {
    const readOnly = sandbox.mode === "read-only" ? " read-only" : "";
    parts.push({ text: `sandboxed${readOnly}${sandbox.network ? " +net" : ""}` });
  } else if (sandbox.mode === "full-access") {
    parts.push({ text: "full-access", danger: true });
  } else {
    parts.push({ text: "no sandbox (asks)", caution: true });
  }
  return parts;
}

const CYCLE: readonly PermissionMode[] = ["default", "accept-edits", "plan"];

/**
 * Shift+Tab: default → accept-edits → plan → default. Bypass joins the cycle (after plan) only in
 * a session that started in it: a key press must never be what turns the checks off.
 */
export function nextMode(mode: PermissionMode, startedInBypass: boolean): PermissionMode {
  const cycle = startedInBypass ? [...CYCLE, "bypass" as const] : CYCLE;
  const at = cycle.indexOf(mode);
  return cycle[(at + 1) % cycle.length] ?? "default";
}
