// Claude Code's permission modes (the SDK's names) and Synapse's. Pure.
//
// dontAsk and auto have no mode of their own here: dontAsk is `default` with nobody asked (a call
// the policy would ask about is refused), and auto, whose classifier Synapse does not have, is
// `default` with the program asked: both stricter than, or as strict as, what was asked for.

import type { PermissionMode } from "../config/config.ts";

export type SdkPermissionMode = "default" | "acceptEdits" | "bypassPermissions" | "plan" | "dontAsk" | "auto";

const TO_SYNAPSE: Record<SdkPermissionMode, PermissionMode> = {
  default: "default",
  acceptEdits: "accept-edits",
  bypassPermissions: "bypass",
  plan: "plan",
  dontAsk: "default",
  auto: "default",
};

const TO_SDK: Record<PermissionMode, SdkPermissionMode> = {
  default: "default",
  "accept-edits": "acceptEdits",
  bypass: "bypassPermissions",
  plan: "plan",
};

export function isSdkMode(mode: string): mode is SdkPermissionMode {
  return Object.hasOwn(TO_SYNAPSE, mode);
}

/** Synapse's mode for an SDK mode name, or undefined for a name neither knows. Synapse's own names pass. */
export function synapseMode(mode: string): PermissionMode | undefined {
  if (isSdkMode(mode)) return TO_SYNAPSE[mode];
  return Object.hasOwn(TO_SDK, mode) ? (mode as PermissionMode) : undefined;
}

export function sdkMode(mode: PermissionMode): SdkPermissionMode {
  return TO_SDK[mode];
}
