// The question the terminal would ask about a tool call, asked of the editor instead
// (`session/request_permission`), and its answer turned back into the gate's. A request the
// client cancels, or an answer naming no option we offered, is a refusal.

import type { PermissionOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import type { ApprovalAnswer, ApprovalRequest } from "../policy/approval.ts";

export const ALLOW_ONCE = "allow_once";
export const ALLOW_ALWAYS = "allow_always";
export const REJECT = "reject_once";

/** "Always" only when the rule covers exactly this call: a rule not offered is never granted. */
export function permissionOptions(request: ApprovalRequest): PermissionOption[] {
  const options: PermissionOption[] = [{ optionId: ALLOW_ONCE, name: "Allow once", kind: "allow_once" }];
  if (request.exact)
    options.push({
      optionId: ALLOW_ALWAYS,
      name: `Always allow ${request.rule} in this session`,
      kind: "allow_always",
    });
  options.push({ optionId: REJECT, name: "Reject", kind: "reject_once" });
  return options;
}

export function answerFor(outcome: RequestPermissionOutcome, offered: readonly PermissionOption[]): ApprovalAnswer {
  if (outcome.outcome === "cancelled") return { no: "the question was cancelled", stop: true };
  if (!offered.some((o) => o.optionId === outcome.optionId)) return { no: "" };
  if (outcome.optionId === ALLOW_ONCE) return "yes";
  if (outcome.optionId === ALLOW_ALWAYS) return "always";
  return { no: "" };
}
