// The one `error:` line a failed run prints on stderr, in every output format (in json and
// stream-json the result object says the same, for scripts; the line is for the person watching).

import { assertNever } from "../../protocol/assert-never.ts";
import type { RunResult } from "../../protocol/events.ts";

/**
 * The text after `error:` for a result that failed, else undefined (success; an interrupt is not
 * an error line). `answerOnStdout`: whether the partial answer was printed as text above.
 */
export function resultErrorText(r: RunResult, answerOnStdout: boolean): string | undefined {
  if (r.error) return r.error;
  switch (r.subtype) {
    case "error_during_execution":
      return r.result;
    case "error_max_tokens": {
      const which = answerOnStdout ? "the answer above" : "the answer (the result holds the part written)";
      return `${which} was cut at the output limit: raise SYNAPSE_MAX_TOKENS or ask for a shorter answer`;
    }
    case "error_max_budget_usd":
    case "error_max_structured_output_retries":
      return r.result;
    case "error_max_turns":
      return `reached the maximum number of turns (${r.num_turns})`;
    case "success":
    case "interrupted":
      return undefined;
    default:
      return assertNever(r.subtype, "result subtype");
  }
}
