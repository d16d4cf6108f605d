// What runs inside a sub-agent's worker thread: its own model loop, transcript store and tools.
// Shell commands go over the task's port to the main thread's one shell pool, so the pool's cap,
// reuse order and kill guarantees hold for sub-agents too.

import { routeConsole } from "../runtime/console-route.ts";
import type { MessagePort } from "node:worker_threads";
import { selectProvider } from "../llm/select.ts";
import { errorMessage } from "../protocol/errors.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { RunOutcome, RunRequest, ShellPool } from "../shell/types.ts";
import { openTaskStore } from "../store/task-store.ts";
import { taskCheckpoints } from "../store/checkpoints.ts";
import { agentKind } from "../tools/registry.ts";
import { offeredTools } from "../tools/offered-tools.ts";
import { buildPolicy, policyForSubAgent } from "../policy/policy.ts";
import { runAgent } from "./runner.ts";
import { runtime } from "../runtime/runtime.ts";
import { remoteMcpTools } from "./remote-mcp-tools.ts";
import { remoteToolHooks } from "./remote-hooks.ts";
import {
  type FromWorker,
  readToWorker,
  type SubAgentInput,
  type SubAgentOutput,
  type ToWorker,
  type WARM_UP,
} from "./sub-agent-protocol.ts";

/** A ShellPool whose commands run in the main thread's pool; the pool's lifetime is the main thread's. */
function remoteShell(post: (m: FromWorker) => void, port: MessagePort): ShellPool {
  let next = 0;
  const pending = new Map<number, { resolve(o: RunOutcome): void; reject(e: Error): void }>();
  port.on("message", (raw: unknown) => {
    let m: ToWorker;
    try {
      m = readToWorker(raw);
    } catch (err) {
      // A malformed answer fails the command it answers (an is_error result for that call).
      const id = (raw as { id?: unknown } | null)?.id;
      const waiter = typeof id === "number" ? pending.get(id) : undefined;
      if (waiter) {
        pending.delete(id as number);
        waiter.reject(err as Error);
      }
      return;
    }
    if (m.t !== "shell-done" && m.t !== "shell-error") return;
    const waiter = pending.get(m.id);
    if (!waiter) return;
    pending.delete(m.id);
    if (m.t === "shell-done") waiter.resolve(m.outcome);
    else waiter.reject(new Error(m.message));
  });
  const zero = { shells_spawned: 0, shells_reused: 0, shells_retired: 0, commands_run: 0 };
  return {
    run(request: RunRequest) {
      const id = next++;
      return new Promise<RunOutcome>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        request.signal?.addEventListener("abort", () => post({ t: "shell-abort", id }), { once: true });
        post({ t: "shell", id, request: { command: request.command, cwd: request.cwd, timeoutMs: request.timeoutMs } });
      });
    },
    // The main thread releases the task's shells, counts them and kills them: nothing to do here.
    releaseTask() {},
    stats: () => zero,
    async close() {},
    killAllNow() {},
  };
}

export default async function runSubAgent(
  input: (SubAgentInput & { port: MessagePort }) | typeof WARM_UP,
): Promise<SubAgentOutput | null> {
  // A warm-up: loading this module in a new thread was the point; a task follows.
  if ("warmUp" in input) return null;
  const { port } = input;
  const post = (m: FromWorker) => {
    try {
      port.postMessage(m);
    } catch {
      // The main thread has closed this task's port (it ended the task); nothing listens any more.
    }
  };
  post({ t: "started" });
  // This thread's heap, at well under a millisecond a reading (Bun's heapStats() walks every
  // object: 60 ms with 200k of them, which would slow the sub-agent it measures).
  const heapSize = await runtime.threadHeapBytes();
  const reportHeap = () => post({ t: "heap", bytes: heapSize() });
  reportHeap();
  const heapTimer = setInterval(reportHeap, input.heapReportMs);
  const controller = new AbortController();
  port.on("message", (m: unknown) => {
    if ((m as { t?: unknown } | null)?.t === "abort") controller.abort();
  });
  let toolCalls = 0;
  const emit = (event: AgentEvent) => {
    if (event.type === "tool_start") toolCalls++;
    // Text deltas and live command output stay here: the parent shows rows and gets only the
    // final answer.
    if (event.type === "text_delta" || event.type === "tool_progress") return;
    post({ t: "event", event });
  };
  // A library's console write from this thread (the SDK's deprecation notice) would go straight to
  // the terminal, through the interactive screen: it becomes the task's warning instead.
  const restoreConsole = routeConsole((message) => emit({ type: "warning", message }));
  // The thread is reused for later tasks: this one's timer must not outlive it. (Its port listeners
  // go with its port, which the main thread closes.)
  try {
    return await run(input, post, emit, controller.signal, () => toolCalls);
  } finally {
    restoreConsole();
    clearInterval(heapTimer);
    // Last on the port: the task pool waits for it, so no event is overtaken by the result.
    post({ t: "done" });
  }
}

async function run(
  input: SubAgentInput & { port: MessagePort },
  post: (m: FromWorker) => void,
  emit: (event: AgentEvent) => void,
  signal: AbortSignal,
  toolCalls: () => number,
): Promise<SubAgentOutput> {
  const { config } = input;
  const provider = selectProvider(config);
  const store = await openTaskStore({
    sessionDir: input.sessionDir,
    taskId: input.taskId,
    cwd: config.cwd,
    model: `${provider.name}/${provider.model}`,
    title: input.title,
    config: config.store,
    onWarning: (message) => emit({ type: "warning", message }),
  });
  const kind = agentKind(config.permissionMode, input.kind);
  try {
    const out = await runAgent({
      // maxBudgetUsd: what is left of the main run's budget as this task started (sub-agents.ts).
      config,
      provider,
      store,
      tools: new Map([...offeredTools(kind, config), ...remoteMcpTools(input.mcpTools ?? [], post, input.port)]),
      // The parent's mode and rules; explore stays read-only whatever the mode. No approver: a
      // sub-agent cannot ask, so what would ask is refused and the model is told why.
      services: {
        shell: remoteShell(post, input.port),
        saveImage: (bytes, mediaType) => store.saveImage(bytes, mediaType),
        permissions: policyForSubAgent(
          buildPolicy(config, { sandboxed: input.sandboxed }),
          input.kind === "explore" ? "explore" : "general",
        ),
        granted: [...input.granted],
        ...(input.checkpointTurn ? { checkpoints: taskCheckpoints(input.sessionDir, input.checkpointTurn) } : {}),
      },
      systemPrompt: input.systemPrompt,
      prompt: [{ type: "text", text: input.prompt }],
      taskId: input.taskId,
      signal,
      emit,
      // The session's hooks run in the main thread: each tool call asks there.
      hooks: input.hooked ? remoteToolHooks(post, input.port) : undefined,
    });
    // The budget is the main run's: the sub-agent failed, and the main run stops before its next request.
    const subtype = out.subtype === "error_max_budget_usd" ? "error_during_execution" : out.subtype;
    const apiMs = Math.round(provider.apiMs);
    return { subtype, result: out.result, numTurns: out.numTurns, usage: out.usage, toolCalls: toolCalls(), apiMs };
  } finally {
    await store.close().catch((err) => emit({ type: "warning", message: `task transcript: ${errorMessage(err)}` }));
  }
}
