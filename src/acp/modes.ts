// Synapse's permission modes as ACP session modes (the editor's mode picker). Pure.

import type { SessionModeState } from "@agentclientprotocol/sdk";
import type { PermissionMode } from "../config/config.ts";
import { UsageError } from "../protocol/errors.ts";

const MODES: { id: PermissionMode; name: string; description: string }[] = [
  {
    id: "default",
    name: "Default",
    description: "Ask before edits outside the workspace and commands the policy cannot prove harmless",
  },
  { id: "accept-edits", name: "Accept edits", description: "File edits in the workspace run without asking" },
  { id: "plan", name: "Plan", description: "Read-only: no edits, no commands that change anything" },
  { id: "bypass", name: "Bypass", description: "Every tool call runs without asking (only deny rules still apply)" },
];

export function modeState(current: PermissionMode): SessionModeState {
  return { currentModeId: current, availableModes: MODES.map((m) => ({ ...m })) };
}

export function permissionModeOf(modeId: string): PermissionMode {
  const mode = MODES.find((m) => m.id === modeId);
  if (!mode) throw new UsageError(`unknown mode "${modeId}" (one of ${MODES.map((m) => m.id).join(", ")})`);
  return mode.id;
}
