// The main thread's side of sub-agents: starts each task in the sliding worker pool, answers its
// shell commands from the session's one shell pool, re-emits its events for the writers, and turns
// every way a task can end (answer, API error, crash, timeout, heap cap, interrupt) into one result.

import { mcpSpecs, mcpToolsFor } from "./mcp-calls.ts";
import type { ToolHooks } from "../hooks/index.ts";
import type { Tool } from "../tools/types.ts";
import type { Config, PermissionMode } from "../config/config.ts";
import type { EventSink } from "../protocol/events.ts";
import type { Usage } from "../protocol/message.ts";
import type { ShellPool } from "../shell/types.ts";
import { type TaskEnd, type TaskPool, createTaskPool } from "../tasks/task-pool.ts";
import { workerFile } from "../tasks/worker-file.ts";
import { agentKind } from "../tools/registry.ts";
import { offeredTools } from "../tools/offered-tools.ts";
import { WARM_UP, type SubAgentInput } from "./sub-agent-protocol.ts";
import { type RunningTask, abortTaskCalls, workerMessageHandler } from "./sub-agent-messages.ts";
import { type TaskCallOutcome, crashedEnd, taskCallOutcome } from "./task-outcome.ts";
import { type PromptEnvironment, renderSystemPrompt } from "./system-prompt.ts";
import type { TaskSpec } from "./task-command.ts";

export type { TaskCallOutcome } from "./task-outcome.ts";

/** Runs sub-agents; given to the main agent only (a sub-agent gets none: no nesting). */
export interface TaskLauncher {
  /**
   * Never throws; `id` is the calling tool call's id. `onHookStop` hears a hook that answered one
   * of the task's calls with `"continue": false` (the task then ends too), as soon as it answers.
   */
  run(
    call: { id: string; spec: TaskSpec },
    signal: AbortSignal,
    emit: EventSink,
    onHookStop?: (reason: string) => void,
  ): Promise<TaskCallOutcome>;
  stats(): { tasksRun: number; maxInFlight: number };
  /** The tokens every sub-agent of the session used so far, turn by turn (a running total). */
  usage(): Usage;
  /** Milliseconds the sub-agents' model requests took, as each reported it at its end. */
  apiMs(): number;
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
  return new SubAgentLauncher(opts);
}

/** The launcher's bookkeeping: the pool (started when first needed), task ids taken, tasks run and their usage. */
class SubAgentLauncher implements TaskLauncher {
  private readonly opts: SubAgentsOptions;
  private pool: Promise<TaskPool> | undefined;
  private ready: TaskPool | undefined;
  private tasksRun = 0;
  private active = 0;
  private readonly spent: Usage = { input_tokens: 0, output_tokens: 0 };
  private apiMsSpent = 0;
  private inOrder: Promise<unknown> = Promise.resolve();
  private remainingUsd: (() => number) | undefined;
  private readonly usedIds = new Set<string>();

  constructor(opts: SubAgentsOptions) {
    this.opts = opts;
  }

  async run(
    call: { id: string; spec: TaskSpec },
    signal: AbortSignal,
    emit: EventSink,
    onHookStop?: (reason: string) => void,
  ): Promise<TaskCallOutcome> {
    const { config, shell } = this.opts;
    // Until the worker starts, the time spent is queueing; the row's duration is the run's own.
    let started = performance.now();
    const taskId = this.newTaskId(call.id);
    this.active++;
    const permissionMode = this.opts.permissionMode?.() ?? config.permissionMode;
    const tools = offeredTools(agentKind(permissionMode, call.spec.kind), config);
    const task = this.runningTask(call, taskId, signal, emit);
    if (onHookStop) task.onHookStop = onHookStop;
    // Chained, so tasks still reach the pool in call order (a queued task must not overtake).
    const turnKnown = this.inOrder.then(() => this.opts.checkpointTurn?.()).catch(() => undefined);
    this.inOrder = turnKnown;
    const checkpointTurn = await turnKnown;
    const input = this.taskInput(task, call.spec, { permissionMode, tools, checkpointTurn });
    const end = await this.runInPool(input, task, () => {
      started = performance.now();
    });
    abortTaskCalls(task);
    shell.releaseTask(taskId);
    this.tasksRun++;
    // After an interrupt no thread outlives the batch: idle threads would otherwise linger until
    // their idle timeout. The next task starts a fresh pool.
    if (--this.active === 0 && signal.aborted) await this.close();
    const outcome = taskCallOutcome(call.id, end, task.toolCalls, Math.round(performance.now() - started));
    this.apiMsSpent += outcome.apiMs;
    return outcome;
  }

  stats(): { tasksRun: number; maxInFlight: number } {
    return { tasksRun: this.tasksRun, maxInFlight: this.ready?.inFlight().max ?? 0 };
  }

  usage(): Usage {
    return { ...this.spent };
  }

  apiMs(): number {
    return this.apiMsSpent;
  }

  limitSpend(remaining: (() => number) | undefined): void {
    this.remainingUsd = remaining;
  }

  warm(count: number): void {
    this.getPool().then(
      (p) => p.warm(count, WARM_UP),
      () => {},
    );
  }

  async close(): Promise<void> {
    const current = this.pool;
    this.pool = undefined;
    this.ready = undefined;
    if (current) await (await current).destroy();
  }

  private getPool(): Promise<TaskPool> {
    const { config } = this.opts;
    this.pool ??= createTaskPool({
      filename: this.opts.workerFile ?? workerFile("subagent"),
      maxThreads: config.tasks.maxParallel,
      timeoutMs: config.tasks.timeoutMs,
      heapCapBytes: config.tasks.maxHeapMb * 1024 * 1024,
    }).then((p) => (this.ready = p));
    return this.pool;
  }

  /** The call's id made file-safe (it names the transcript's folder), unique in the session. */
  private newTaskId(callId: string): string {
    let taskId = fileSafe(callId);
    for (let n = 2; this.usedIds.has(taskId); n++) taskId = `${fileSafe(callId)}-${n}`;
    this.usedIds.add(taskId);
    return taskId;
  }

  private runningTask(
    call: { id: string; spec: TaskSpec },
    taskId: string,
    signal: AbortSignal,
    emit: EventSink,
  ): RunningTask {
    const { config, shell } = this.opts;
    return {
      callId: call.id,
      taskId,
      label: taskLabel(call.spec),
      config,
      shell,
      signal,
      emit,
      spent: this.spent,
      // Explore tasks get only the tools their servers mark read-only.
      mcp: mcpToolsFor(this.opts.mcpTools?.(), call.spec.kind === "explore"),
      hooks: this.opts.hooks?.(),
      toolCalls: 0,
      commands: new Map(),
      mcpCalls: new Map(),
    };
  }

  /** What the worker gets: the task, its system prompt and the session's settings as they are now. */
  private taskInput(
    task: RunningTask,
    spec: TaskSpec,
    now: { permissionMode: PermissionMode; tools: ReadonlyMap<string, Tool>; checkpointTurn: string | undefined },
  ): SubAgentInput {
    const { opts, remainingUsd } = this;
    return {
      taskId: task.taskId,
      kind: spec.kind,
      prompt: spec.prompt,
      title: task.label,
      systemPrompt: subAgentPrompt(opts.promptEnv, spec, [...now.tools.keys(), ...task.mcp.keys()]),
      config: {
        ...opts.config,
        permissionMode: now.permissionMode,
        ...(opts.modelSpec ? { model: opts.modelSpec() } : {}),
        // The run's budget is the parent's: a sub-agent may spend what is left of it, no more.
        maxBudgetUsd: remainingUsd ? Math.max(0, remainingUsd()) : undefined,
      },
      sessionDir: opts.sessionDir,
      granted: [...(opts.granted?.() ?? [])],
      sandboxed: opts.sandboxed ?? false,
      heapReportMs: opts.heapReportMs ?? 200,
      mcpTools: mcpSpecs(task.mcp),
      hooked: task.hooks !== undefined,
      ...(now.checkpointTurn ? { checkpointTurn: now.checkpointTurn } : {}),
    };
  }

  /** The task run in a pool thread; a pool that cannot run it ends it as crashed. */
  private async runInPool(input: SubAgentInput, task: RunningTask, onStart: () => void): Promise<TaskEnd<unknown>> {
    try {
      return await (await this.getPool()).run<SubAgentInput, unknown>(input, {
        signal: task.signal,
        onStart: () => {
          onStart();
          task.emit({ type: "task_progress", id: task.callId, state: "running", tool_calls: 0 });
        },
        onMessage: workerMessageHandler(task) as (m: unknown, reply: (m: unknown) => void) => void,
      });
    } catch (err) {
      return crashedEnd(err);
    }
  }
}
