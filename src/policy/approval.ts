// What the gate asks whoever can answer (the interactive prompt) and what it hears back. Kept here,
// not in tools/, so the policy stays below every folder that asks it.

import type { PermissionPolicy } from "./policy.ts";

/** A call waiting for the user's yes or no. */
export interface ApprovalRequest {
  tool: string;
  input: unknown;
  /** Why it needs asking. */
  reason: string;
  /** The allow rule "don't ask again" adds for this session. */
  rule: string;
  /** `rule` covers exactly this call and lets it through (exact-grant.ts): only then is it offered. */
  exact?: boolean;
  /** On the dangerous list: the prompt starts on "no", so a stray Enter does not run it. */
  dangerous?: boolean;
}

/**
 * `stop`: the user pressed Esc or Ctrl-C: the call is rejected and the turn ends (interactive-session.ts).
 * `edited`: yes, but with this input instead (an Agent SDK program's `updatedInput`); the tool-call
 * path checks it against the tool's schema and the policy again, and a deny rule still refuses it.
 */
export type ApprovalAnswer =
  | "yes"
  | "always"
  | { no: string; stop?: boolean }
  | { edited: Record<string, unknown>; no?: undefined; stop?: undefined };

/** The part of a tool call's services the gate reads (tools' `ToolServices` has them all). */
export interface GateServices {
  permissions?: PermissionPolicy;
  granted?: string[];
  approve?(request: ApprovalRequest): Promise<ApprovalAnswer>;
}
