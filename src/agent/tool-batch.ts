// One assistant turn's tool calls, run in order, where each maximal run of consecutive `task:*`
// calls runs in parallel (in the sub-agent pool) and every call gets exactly one result, in call
// order. `groupToolCalls` is the pure part.

import type { EventSink } from "../protocol/events.ts";
import type { ToolDisplay } from "../protocol/tool-display.ts";
import type { ContentBlock, ToolResultBlock, ToolUseBlock } from "../protocol/message.ts";
import type { Tool, ToolContext } from "../tools/types.ts";
import type { TaskCallOutcome, TaskLauncher } from "./sub-agents.ts";
import { taskLabel } from "./sub-agents.ts";
import { parseTaskCommand, taskCommandOf } from "./task-command.ts";
import type { ToolHooks } from "../hooks/index.ts";

export type ToolCallGroup<C> = { kind: "single"; call: C } | { kind: "tasks"; calls: C[] };

/** Consecutive task calls form one group; every other call is a group of its own. */
export function groupToolCalls<C>(calls: readonly C[], isTask: (call: C) => boolean): ToolCallGroup<C>[] {
  const groups: ToolCallGroup<C>[] = [];
  for (const call of calls) {
    const last = groups[groups.length - 1];
    if (!isTask(call)) groups.push({ kind: "single", call });
    else if (last?.kind === "tasks") last.calls.push(call);
    else groups.push({ kind: "tasks", calls: [call] });
  }
  return groups;
}

export interface ToolBatchInput {
  calls: readonly ToolUseBlock[];
  tools: ReadonlyMap<string, Tool>;
  signal: AbortSignal;
  emit: EventSink;
  /** The context for one call (its progress goes to that call's events). */
  context(call: ToolUseBlock): ToolContext;
  /** Absent for sub-agents: task commands are refused (no nesting). */
  tasks?: TaskLauncher;
  /** PreToolUse and PostToolUse hooks (src/hooks), when the session has any. */
  hooks?: ToolHooks;
}

const INTERRUPTED = "Interrupted by the user.";
const HOOK_STOPPED = "Not run: a hook stopped the agent.";
const CUT_BY_STOP = "Stopped: a hook stopped the agent while this sub-agent ran.";
const NO_NESTING = "Sub-agents cannot start sub-agents: task:* is not available here. Do the work with your own tools.";

function errorResult(id: string, text: string): ToolResultBlock {
  return { type: "tool_result", tool_use_id: id, content: text, is_error: true };
}

export interface ToolBatchResult {
  /** One result per call, in call order. */
  results: ContentBlock[];
  /** A hook stopped the agent (`"continue": false`): its reason; the calls after it did not run. */
  stopped?: string;
}

export async function runToolCalls(input: ToolBatchInput): Promise<ToolBatchResult> {
  const { tools, signal, emit } = input;
  // Task syntax applies only where Bash is a tool of this agent (e.g. not in plan mode).
  const isTask = (call: ToolUseBlock) => tools.has("Bash") && taskCommandOf(call.name, call.input) !== undefined;
  const results: ContentBlock[] = [];
  let stopped: string | undefined;

  const single = async (call: ToolUseBlock) => {
    if (signal.aborted) return results.push(errorResult(call.id, INTERRUPTED));
    if (stopped !== undefined) return results.push(errorResult(call.id, HOOK_STOPPED));
    const raw = call.raw_input !== undefined ? { raw_input: call.raw_input } : {};
    emit({ type: "tool_start", id: call.id, name: call.name, input: call.input, ...raw });
    // The call path (input checks, the permission gate) loads with the first call, off a run's way
    // to its first request.
    const { executeToolCall } = await import("./tool-call.ts");
    const outcome = await executeToolCall(call, tools, input.context(call), input.hooks);
    results.push(outcome.block);
    stopped ??= outcome.stopped;
    emitCallEnd(emit, call, { ...outcome, isError: Boolean(outcome.block.is_error) });
  };

  const taskGroup = async (calls: ToolUseBlock[]) => {
    if (stopped !== undefined) {
      for (const call of calls) results.push(errorResult(call.id, HOOK_STOPPED));
      return;
    }
    results.push(
      ...(await runTaskGroup(input, calls, (reason) => {
        stopped ??= reason;
      })),
    );
  };

  for (const group of groupToolCalls(input.calls, isTask)) {
    if (group.kind === "single") await single(group.call);
    else await taskGroup(group.calls);
  }
  return stopped === undefined ? { results } : { results, stopped };
}

/**
 * A run of consecutive task calls: admitted one at a time, then run in parallel; one result per
 * call, in call order. A hook's `"continue": false` in one sub-agent is the whole run's stop
 * (`onStop`): the sub-agents still running are cut at once, their results say why.
 */
async function runTaskGroup(
  input: ToolBatchInput,
  calls: ToolUseBlock[],
  onStop: (reason: string) => void,
): Promise<ToolResultBlock[]> {
  const { tools, signal, emit } = input;
  const cuts = new Map<string, AbortController>();
  const stop = (by: string, reason: string) => {
    onStop(reason);
    for (const [id, cut] of cuts) if (id !== by) cut.abort();
  };
  // The gate first, one call at a time (an approval prompt asks about one call), then the launches.
  const refused = new Map<string, ToolResultBlock>();
  for (const call of calls) {
    if (signal.aborted || !input.tasks) break;
    const { admitTaskCall } = await import("./task-gate.ts");
    const admission = await admitTaskCall(call, tools, input.context(call));
    if (admission.ok) continue;
    refused.set(call.id, admission.block);
    emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
    const summary = String(admission.block.content).split("\n")[0] ?? "";
    emitCallEnd(emit, call, { isError: true, summary, denied: admission.denied });
  }
  const runs = calls.map((call): Promise<TaskCallOutcome | ToolResultBlock> => {
    if (signal.aborted) return Promise.resolve(errorResult(call.id, INTERRUPTED));
    const refusal = refused.get(call.id);
    if (refusal) return Promise.resolve(refusal);
    const parsed = parseTaskCommand(taskCommandOf(call.name, call.input) ?? "");
    if (!input.tasks || "error" in parsed) {
      const text = "error" in parsed ? parsed.error : NO_NESTING;
      emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
      emit({ type: "tool_end", id: call.id, name: call.name, is_error: true, summary: text.split("\n")[0] ?? "" });
      return Promise.resolve(errorResult(call.id, text));
    }
    // task_start first: a writer that draws status rows knows this call is a task before its tool_start.
    emit({ type: "task_start", id: call.id, kind: `task:${parsed.kind}`, description: taskLabel(parsed) });
    emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
    const cut = new AbortController();
    cuts.set(call.id, cut);
    const launched = input.tasks.run(
      { id: call.id, spec: parsed },
      AbortSignal.any([signal, cut.signal]),
      emit,
      (why) => stop(call.id, why),
    );
    return launched.then((ended) => {
      // Cut by another sub-agent's stop, not by the user: its result says so.
      const byStop = ended.interrupted && cut.signal.aborted && !signal.aborted;
      const outcome = byStop ? { ...ended, block: errorResult(call.id, CUT_BY_STOP), summary: CUT_BY_STOP } : ended;
      emit({
        type: "task_end",
        id: call.id,
        is_error: Boolean(outcome.block.is_error),
        duration_ms: outcome.durationMs,
        tool_calls: outcome.toolCalls,
        summary: outcome.summary,
      });
      emitCallEnd(emit, call, { isError: Boolean(outcome.block.is_error), summary: outcome.summary });
      return outcome;
    });
  });
  return Promise.all(runs).then((ends) => ends.map((r) => ("block" in r ? r.block : r)));
}

/** A call's end as the writers see it: the gate's refusal first, when it refused, then its tool_end. */
function emitCallEnd(
  emit: EventSink,
  call: ToolUseBlock,
  end: { isError: boolean; summary: string; display?: ToolDisplay; denied?: { reason: string; allowWith?: string } },
): void {
  if (end.denied)
    emit({
      type: "permission_denied",
      id: call.id,
      name: call.name,
      reason: end.denied.reason,
      allow_with: end.denied.allowWith,
    });
  const display = end.display ? { display: end.display } : {};
  emit({ type: "tool_end", id: call.id, name: call.name, is_error: end.isError, summary: end.summary, ...display });
}
