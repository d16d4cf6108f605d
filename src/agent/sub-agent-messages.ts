// A running sub-agent's messages, as the main thread answers them: its events relayed for the writers,
// its shell commands run in the session's one shell pool, its MCP calls and hook questions answered.

import type { ToolHooks } from "../hooks/index.ts";
import { addUsage } from "../llm/pricing.ts";
import { assertNever } from "../protocol/assert-never.ts";
import type { AgentEvent, EventSink } from "../protocol/events.ts";
import type { Usage } from "../protocol/message.ts";
import type { ShellPool } from "../shell/types.ts";
import type { Config } from "../config/config.ts";
import type { Tool } from "../tools/types.ts";
import { runMcpCall } from "./mcp-calls.ts";
import { redactInput } from "./redact-input.ts";
import { answerHookQuestion } from "./remote-hooks.ts";
import { type FromWorker, readFromWorker, type ToWorker } from "./sub-agent-protocol.ts";

/** One task, as its messages need it; `toolCalls` counts the calls its events announced so far. */
export interface RunningTask {
  callId: string;
  taskId: string;
  label: string;
  config: Config;
  shell: ShellPool;
  signal: AbortSignal;
  emit: EventSink;
  /** The session's sub-agent usage, a running total each finished turn adds to. */
  spent: Usage;
  mcp: ReadonlyMap<string, Tool>;
  hooks: ToolHooks | undefined;
  /**
   * A hook answered this task's call with `"continue": false` (its reason). Heard here, where the
   * hooks run, not from the worker: the stop is the whole run's (README "Hooks").
   */
  onHookStop?: (reason: string) => void;
  toolCalls: number;
  /** Commands of this task still running in the main thread's pool; killed when the task ends. */
  commands: Map<number, AbortController>;
  mcpCalls: Map<number, AbortController>;
}

/** The task's port handler. A malformed message throws here, and the task pool ends the task as crashed. */
export function workerMessageHandler(task: RunningTask): (raw: unknown, reply: (m: ToWorker) => void) => void {
  return (raw, reply) => {
    const m = readFromWorker(raw);
    switch (m.t) {
      case "event":
        if (m.event.type === "tool_start") task.toolCalls++;
        // Counted as each turn ends, so a task that crashes or is stopped later has paid for it.
        if (m.event.type === "assistant" && m.event.message.usage) addUsage(task.spent, m.event.message.usage);
        relayEvent(m.event, task, task.emit);
        return;
      case "shell":
        runTaskCommand(m, task, reply);
        return;
      case "shell-abort":
        task.commands.get(m.id)?.abort();
        return;
      case "mcp":
        runMcpCall(
          task.mcp,
          m,
          { config: task.config, taskId: task.taskId, signal: task.signal, calls: task.mcpCalls },
          reply,
        );
        return;
      case "mcp-abort":
        task.mcpCalls.get(m.id)?.abort();
        return;
      case "hook":
        if (task.hooks)
          answerHookQuestion(task.hooks, m, task.signal, (answer) => {
            if (answer.t === "hook-done" && answer.stop !== undefined) task.onHookStop?.(answer.stop);
            reply(answer);
          });
        return;
      // The task pool's own messages: it reads them and never passes them on.
      case "started":
      case "done":
      case "heap":
        return;
      default:
        assertNever(m, "sub-agent message");
    }
  };
}

/** Stops what the task left running in the main thread: its commands and MCP calls. */
export function abortTaskCalls(task: RunningTask): void {
  for (const controller of [...task.commands.values(), ...task.mcpCalls.values()]) controller.abort();
}

/** A sub-agent's command, run in the session's one shell pool; its end is answered on the task's port. */
function runTaskCommand(
  m: Extract<FromWorker, { t: "shell" }>,
  task: { shell: ShellPool; taskId: string; signal: AbortSignal; commands: Map<number, AbortController> },
  reply: (m: ToWorker) => void,
): void {
  const controller = new AbortController();
  task.commands.set(m.id, controller);
  task.shell
    .run({
      ...m.request,
      // The main thread decides the task id: a worker cannot borrow another task's shells.
      taskId: task.taskId,
      signal: AbortSignal.any([task.signal, controller.signal]),
      // No live output: a sub-agent's commands are not shown, only its row.
    })
    .then(
      (outcome) => reply({ t: "shell-done", id: m.id, outcome }),
      (err) => reply({ t: "shell-error", id: m.id, message: err instanceof Error ? err.message : String(err) }),
    )
    .finally(() => task.commands.delete(m.id));
}

/**
 * A sub-agent's event as the main thread shows it: its turns under the calling tool, its calls as
 * the row's progress.
 */
function relayEvent(
  e: AgentEvent,
  task: { callId: string; label: string; toolCalls: number; config: { secrets: readonly string[] } },
  emit: EventSink,
): void {
  const who = `task ${task.label.slice(0, 40)}`;
  switch (e.type) {
    case "assistant":
    case "user":
      emit({ ...e, parent_tool_use_id: task.callId });
      return;
    case "tool_start": {
      // The row shows the call being made: its input may quote a secret the model was given.
      const tool = { name: e.name, input: redactInput(e.input, task.config.secrets) };
      emit({ type: "task_progress", id: task.callId, state: "running", tool_calls: task.toolCalls, tool });
      return;
    }
    case "warning":
      emit({ type: "warning", message: `${who}: ${e.message}` });
      return;
    // The user learns what a sub-agent was refused, and which flag would allow it.
    case "permission_denied":
      emit({ ...e, reason: `in ${who}: ${e.reason}` });
      return;
    case "turn_retry":
      emit({ type: "warning", message: `${who}: retrying the model request (attempt ${e.attempt}): ${e.reason}` });
      return;
    // The rest stays in the worker: its streamed text and live output (the row is enough), its own
    // start, condensing and result (the task's end carries the answer), and no nested tasks.
    case "init":
    case "text_delta":
    case "tool_progress":
    case "tool_end":
    case "task_start":
    case "task_progress":
    case "task_end":
    case "compact_start":
    case "compact_boundary":
    case "result":
      return;
    default:
      assertNever(e, "sub-agent event");
  }
}
