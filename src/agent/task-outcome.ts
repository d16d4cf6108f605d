// Every way a sub-agent's task can end (answer, API error, crash, timeout, heap cap, interrupt) as the
// one tool result the calling model gets.

import { errorMessage } from "../protocol/errors.ts";
import type { ToolResultBlock } from "../protocol/message.ts";
import type { TaskEnd } from "../tasks/task-pool.ts";
import { readSubAgentOutput, type SubAgentOutput } from "./sub-agent-protocol.ts";

export interface TaskCallOutcome {
  block: ToolResultBlock;
  summary: string;
  durationMs: number;
  toolCalls: number;
  /** The sub-agent's model requests' time, as it reported it (0 when it ended without a report). */
  apiMs: number;
  /** It ended because its signal was aborted (the user's interrupt, or a hook's stop elsewhere). */
  interrupted: boolean;
}

/** The calling tool call's result: the task's outcome, its first line as the row's summary. */
export function taskCallOutcome(
  callId: string,
  end: TaskEnd<unknown>,
  seenCalls: number,
  durationMs: number,
): TaskCallOutcome {
  const { text, isError, toolCalls, apiMs } = taskOutcome(end, seenCalls);
  const block: ToolResultBlock = { type: "tool_result", tool_use_id: callId, content: text.toWellFormed() };
  if (isError) block.is_error = true;
  const first = text.split("\n").find((l) => l.trim()) ?? "";
  return { block, summary: first, durationMs, toolCalls, apiMs, interrupted: isError && text === INTERRUPTED };
}

const INTERRUPTED = "Interrupted by the user.";

/** A pool that failed to run the task at all ends it as crashed. */
export function crashedEnd(err: unknown): TaskEnd<unknown> {
  return { ok: false as const, reason: "crashed" as const, message: err instanceof Error ? err.message : String(err) };
}

/** The tool result a task's end makes: the sub-agent's answer, or why there is none. */
export function taskOutcome(
  end: TaskEnd<unknown>,
  seenCalls: number,
): { text: string; isError: boolean; toolCalls: number; apiMs: number } {
  let out: SubAgentOutput | undefined;
  let failed = end.ok ? undefined : end;
  if (end.ok) {
    try {
      out = readSubAgentOutput(end.value);
    } catch (err) {
      failed = { ok: false, reason: "crashed", message: errorMessage(err) };
    }
  }
  if (out) {
    const toolCalls = Math.max(seenCalls, out.toolCalls);
    const apiMs = out.apiMs ?? 0;
    if (out.subtype === "success") {
      const text = out.result.trim() ? out.result : "(the sub-agent gave no answer)";
      return { text, isError: false, toolCalls, apiMs };
    }
    let text = `The sub-agent failed: ${out.result}`;
    if (out.subtype === "interrupted") text = INTERRUPTED;
    else if (out.subtype === "error_max_turns")
      text = `The sub-agent stopped at the turn limit. Its last words: ${out.result}`;
    else if (out.subtype === "error_max_tokens")
      text = `The sub-agent's answer was cut at the output limit; what it wrote: ${out.result}`;
    return { text, isError: true, toolCalls, apiMs };
  }
  let text = `The sub-agent crashed: ${failed?.message}`;
  if (failed?.reason === "interrupted") text = INTERRUPTED;
  else if (failed?.reason === "timeout")
    text = `The sub-agent ${failed.message} (SYNAPSE_TASK_TIMEOUT_MS) and was stopped.`;
  else if (failed?.reason === "out_of_memory")
    text = `The sub-agent ran ${failed.message} (SYNAPSE_TASK_MAX_HEAP_MB) and was stopped.`;
  return { text, isError: true, toolCalls: seenCalls, apiMs: 0 };
}
