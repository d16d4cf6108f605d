// The main thread's side of sub-agents: starts each task in the sliding worker pool, answers its
// shell commands from the session's one shell pool, re-emits its events for the writers, and turns
// every way a task can end (answer, API error, crash, timeout, heap cap, interrupt) into one result.

import { mcpSpecs, mcpToolsFor, runMcpCall } from "./mcp-calls.ts";
import { answerHookQuestion } from "./remote-hooks.ts";
import type { ToolHooks } from "../hooks/index.ts";
import { redactInput } from "./redact-input.ts";
import type { Tool } from "../tools/types.ts";
import type { Config, PermissionMode } from "../config/config.ts";
import { assertNever } from "../protocol/assert-never.ts";
import { errorMessage } from "../protocol/errors.ts";
import type { AgentEvent, EventSink } from "../protocol/events.ts";
import type { ToolResultBlock, Usage } from "../protocol/message.ts";
import { addUsage } from "../llm/pricing.ts";
import type { ShellPool } from "../shell/types.ts";
import { type TaskEnd, type TaskPool, createTaskPool } from "../tasks/task-pool.ts";
import { workerFile } from "../tasks/worker-file.ts";
import { agentKind, toolsFor } from "../tools/registry.ts";
import {
  type FromWorker,
  WARM_UP,
  readFromWorker,
  readSubAgentOutput,
  type SubAgentInput,
  type SubAgentOutput,
  type ToWorker,
} from "./sub-agent-protocol.ts";
import { type PromptEnvironment, renderSystemPrompt } from "./system-prompt.ts";
import type { TaskSpec } from "./task-command.ts";

export interface TaskCallOutcome {
  block: ToolResultBlock;
  summary: string;
  durationMs: number;
  toolCalls: number;
}

/** Runs sub-agents; given to the main agent only (a sub-agent gets none: no nesting). */
export interface TaskLauncher {
  /** Never throws; `id` is the calling tool call's id. */
  run(call: { id: string; spec: TaskSpec }, signal: AbortSignal, emit: EventSink): Promise<TaskCallOutcome>;
  stats(): { tasksRun: number; maxInFlight: number };
  /** The tokens every sub-agent of the session used so far, turn by turn (a running total). */
  usage(): Usage;
  /**
   * The dollars a task starting now may spend (the run's budget minus what it spent), or undefined
   * without a budget: set by each run, read as each task starts.
   */
  limitSpend(remainingUsd: (() => number) | undefined): void;
  /** `count` task calls are on their way (still streaming): start that many threads now. Never throws. */
  warm(count: number): void;
  close(): Promise<void>;
}

export interface SubAgentsOptions {
  config: Config;
  shell: ShellPool;
  /** The session's shells run in the OS sandbox (the sub-agents' commands run there too). */
  sandboxed?: boolean;
  /** The parent session's folder (transcripts go to `tasks/<task-id>/`). */
  sessionDir: string;
  promptEnv: PromptEnvironment;
  /** Worker entry; tests point it at their own workers. */
  workerFile?: string;
  heapReportMs?: number;
  /** The model the session uses now (`/model` may have switched it since the config was made). */
  modelSpec?(): string;
  /** Permission rules the user granted in this session so far; a sub-agent starts with them. */
  granted?(): readonly string[];
  /** The session's permission mode now (Shift+Tab may have switched it); a sub-agent starts in it. */
  permissionMode?(): PermissionMode;
  /** The session's MCP tools now; a sub-agent's calls of them come here (mcp-calls.ts). */
  mcpTools?(): ReadonlyMap<string, Tool>;
  /** The session's hooks, when it has any (read as each task starts); a task's tool calls ask them. */
  hooks?(): ToolHooks | undefined;
  /** The prompt whose `/rewind` checkpoints a task's writes belong to (store/checkpoints.ts). */
  checkpointTurn?(): Promise<string | undefined>;
}

const SUB_AGENT_NOTE = [
  "",
  "You are a sub-agent: another agent gave you the task below and sees only your final message.",
  "Make that message complete and self-contained (findings, file paths, line numbers); it is your",
  "whole answer. You cannot start sub-agents yourself (task:* commands are not available).",
];
const EXPLORE_NOTE = "This is a read-only task: look, search and read, but change nothing.";

export function subAgentPrompt(env: PromptEnvironment, spec: TaskSpec, toolNames: string[]): string {
  const lines = [renderSystemPrompt(env, toolNames, { tasks: false }), ...SUB_AGENT_NOTE];
  if (spec.kind === "explore") lines.push(EXPLORE_NOTE);
  return lines.join("\n");
}

export function taskLabel(spec: TaskSpec): string {
  return spec.description ?? spec.prompt;
}

function fileSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "task";
}

export function createSubAgents(opts: SubAgentsOptions): TaskLauncher {
  const { config, shell } = opts;
  let pool: Promise<TaskPool> | undefined;
  let ready: TaskPool | undefined;
  let tasksRun = 0;
  let active = 0;
  const spent: Usage = { input_tokens: 0, output_tokens: 0 };
  let inOrder: Promise<unknown> = Promise.resolve();
  let remainingUsd: (() => number) | undefined;
  const usedIds = new Set<string>();
  const getPool = () =>
    (pool ??= createTaskPool({
      filename: opts.workerFile ?? workerFile("subagent"),
      maxThreads: config.tasks.maxParallel,
      timeoutMs: config.tasks.timeoutMs,
      heapCapBytes: config.tasks.maxHeapMb * 1024 * 1024,
    }).then((p) => (ready = p)));

  const launcher: TaskLauncher = {
    async run(call, signal, emit) {
      // Until the worker starts, the time spent is queueing; the row's duration is the run's own.
      let started = performance.now();
      const { spec } = call;
      let taskId = fileSafe(call.id);
      for (let n = 2; usedIds.has(taskId); n++) taskId = `${fileSafe(call.id)}-${n}`;
      usedIds.add(taskId);
      active++;
      const label = taskLabel(spec);
      let toolCalls = 0;
      // Commands of this task still running in the main thread's pool; killed when the task ends.
      const commands = new Map<number, AbortController>();
      const permissionMode = opts.permissionMode?.() ?? config.permissionMode;
      const tools = toolsFor(agentKind(permissionMode, spec.kind));
      // Explore tasks get only the tools their servers mark read-only.
      const mcp = mcpToolsFor(opts.mcpTools?.(), spec.kind === "explore");
      const mcpCalls = new Map<number, AbortController>();
      const hooks = opts.hooks?.();
      // Chained, so tasks still reach the pool in call order (a queued task must not overtake).
      const turnKnown = inOrder.then(() => opts.checkpointTurn?.()).catch(() => undefined);
      inOrder = turnKnown;
      const checkpointTurn = await turnKnown;
      const input: SubAgentInput = {
        taskId,
        kind: spec.kind,
        prompt: spec.prompt,
        title: label,
        systemPrompt: subAgentPrompt(opts.promptEnv, spec, [...tools.keys(), ...mcp.keys()]),
        config: {
          ...config,
          permissionMode,
          ...(opts.modelSpec ? { model: opts.modelSpec() } : {}),
          // The run's budget is the parent's: a sub-agent may spend what is left of it, no more.
          maxBudgetUsd: remainingUsd ? Math.max(0, remainingUsd()) : undefined,
        },
        sessionDir: opts.sessionDir,
        granted: [...(opts.granted?.() ?? [])],
        sandboxed: opts.sandboxed ?? false,
        heapReportMs: opts.heapReportMs ?? 200,
        mcpTools: mcpSpecs(mcp),
        hooked: hooks !== undefined,
        ...(checkpointTurn ? { checkpointTurn } : {}),
      };

      // A malformed message throws here, and the task pool ends the task as crashed.
      const onMessage = (raw: unknown, reply: (m: ToWorker) => void) => {
        const m = readFromWorker(raw);
        switch (m.t) {
          case "event":
            if (m.event.type === "tool_start") toolCalls++;
            // Counted as each turn ends, so a task that crashes or is stopped later has paid for it.
            if (m.event.type === "assistant" && m.event.message.usage) addUsage(spent, m.event.message.usage);
            relayEvent(m.event, { callId: call.id, label, toolCalls, secrets: config.secrets }, emit);
            return;
          case "shell":
            runTaskCommand(m, { shell, taskId, signal, commands }, reply);
            return;
          case "shell-abort":
            commands.get(m.id)?.abort();
            return;
          case "mcp":
            runMcpCall(mcp, m, { config, taskId, signal, calls: mcpCalls }, reply);
            return;
          case "mcp-abort":
            mcpCalls.get(m.id)?.abort();
            return;
          case "hook":
            if (hooks) answerHookQuestion(hooks, m, signal, reply);
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

      let end: TaskEnd<unknown>;
      try {
        end = await (await getPool()).run<SubAgentInput, unknown>(input, {
          signal,
          onStart: () => {
            started = performance.now();
            emit({ type: "task_progress", id: call.id, state: "running", tool_calls: 0 });
          },
          onMessage: onMessage as (m: unknown, reply: (m: unknown) => void) => void,
        });
      } catch (err) {
        end = {
          ok: false as const,
          reason: "crashed" as const,
          message: err instanceof Error ? err.message : String(err),
        };
      }
      for (const controller of [...commands.values(), ...mcpCalls.values()]) controller.abort();
      shell.releaseTask(taskId);
      tasksRun++;
      // After an interrupt no thread outlives the batch: idle threads would otherwise linger until
      // their idle timeout. The next task starts a fresh pool.
      if (--active === 0 && signal.aborted) await launcher.close();

      const { text, isError, toolCalls: counted } = taskOutcome(end, toolCalls);
      toolCalls = counted;

      const block: ToolResultBlock = { type: "tool_result", tool_use_id: call.id, content: text.toWellFormed() };
      if (isError) block.is_error = true;
      const first = text.split("\n").find((l) => l.trim()) ?? "";
      return { block, summary: first, durationMs: Math.round(performance.now() - started), toolCalls };
    },
    stats: () => ({ tasksRun, maxInFlight: ready?.inFlight().max ?? 0 }),
    usage: () => ({ ...spent }),
    limitSpend(remaining) {
      remainingUsd = remaining;
    },
    warm(count) {
      getPool().then(
        (p) => p.warm(count, WARM_UP),
        () => {},
      );
    },
    async close() {
      const current = pool;
      pool = undefined;
      ready = undefined;
      if (current) await (await current).destroy();
    },
  };
  return launcher;
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
  task: { callId: string; label: string; toolCalls: number; secrets: readonly string[] },
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
      const tool = { name: e.name, input: redactInput(e.input, task.secrets) };
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

/** The tool result a task's end makes: the sub-agent's answer, or why there is none. */
function taskOutcome(end: TaskEnd<unknown>, seenCalls: number): { text: string; isError: boolean; toolCalls: number } {
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
    if (out.subtype === "success") {
      return { text: out.result.trim() ? out.result : "(the sub-agent gave no answer)", isError: false, toolCalls };
    }
    let text = `The sub-agent failed: ${out.result}`;
    if (out.subtype === "interrupted") text = "Interrupted by the user.";
    else if (out.subtype === "error_max_turns")
      text = `The sub-agent stopped at the turn limit. Its last words: ${out.result}`;
    else if (out.subtype === "error_max_tokens")
      text = `The sub-agent's answer was cut at the output limit; what it wrote: ${out.result}`;
    return { text, isError: true, toolCalls };
  }
  let text = `The sub-agent crashed: ${failed?.message}`;
  if (failed?.reason === "interrupted") text = "Interrupted by the user.";
  else if (failed?.reason === "timeout")
    text = `The sub-agent ${failed.message} (SYNAPSE_TASK_TIMEOUT_MS) and was stopped.`;
  else if (failed?.reason === "out_of_memory")
    text = `The sub-agent ran ${failed.message} (SYNAPSE_TASK_MAX_HEAP_MB) and was stopped.`;
  return { text, isError: true, toolCalls: seenCalls };
}
