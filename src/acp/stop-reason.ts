// How a prompt turn ends, in ACP's words: a finished submission → the prompt's `stopReason`, or the
// error the `session/prompt` request fails with when the turn did not end on one of them. Pure.

import type { StopReason } from "@agentclientprotocol/sdk";
import type { SubmissionOutcome } from "../executor/executor.ts";

export type TurnEnd = { stopReason: StopReason } | { error: string };

export function turnEnd(outcome: SubmissionOutcome): TurnEnd {
  if (outcome.status === "interrupted") return { stopReason: "cancelled" };
  const result = outcome.result;
  if (!result)
    return outcome.status === "failed" ? { error: outcome.error ?? "the command failed" } : { stopReason: "end_turn" };
  if (result.subtype === "interrupted") return { stopReason: "cancelled" };
  if (result.stop_reason === "refusal") return { stopReason: "refusal" };
  switch (result.subtype) {
    case "success":
      return result.error ? { error: result.error } : { stopReason: "end_turn" };
    case "error_max_tokens":
      return { stopReason: "max_tokens" };
    case "error_max_turns":
      return { stopReason: "max_turn_requests" };
    case "error_max_budget_usd":
      return { error: `stopped: ${result.result || "the --max-budget-usd budget is spent"}` };
    case "error_max_structured_output_retries":
      return { error: result.result };
    case "error_during_execution":
      return { error: result.result || result.error || "the run failed" };
  }
}
