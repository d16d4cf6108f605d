// set_permission_mode (and a can_use_tool answer's `setMode` update): a switch of the permission
// mode for the next tool call. Bypass only when the run was started allowing it
// (`--allow-dangerously-skip-permissions`, or started in bypass): a program may not widen what its
// own command line allowed.

import { synapseMode } from "./permission-modes.ts";
import type { SessionControl } from "./types.ts";

/** Applies the mode to the open executor; returns the sentence of a refusal instead. */
export function applyMode(
  session: Pick<SessionControl, "config" | "flags"> & {
    current: { runtime: { setPermissionMode(mode: ReturnType<typeof synapseMode> & string): void } } | undefined;
    dontAsk: boolean;
  },
  mode: string,
): string | undefined {
  const target = synapseMode(mode);
  if (target === undefined) return `unknown permission mode "${mode}"`;
  const mayBypass = session.flags.allowBypass || session.config.permissionMode === "bypass";
  if (target === "bypass" && !mayBypass)
    return "bypassPermissions is refused: the run was not started with --allow-dangerously-skip-permissions";
  if (!session.current) return "the session is not open yet";
  session.current.runtime.setPermissionMode(target);
  session.dontAsk = mode === "dontAsk";
  return undefined;
}
