// One submission of an open session through the agent: MCP servers awaited (bounded), the prompt
// expanded, the agent run, the session saved, and the result with its usage, cost and counters.

import { type RunOutput, runAgent } from "../agent/runner.ts";
import { contextWindowFor } from "../context/model-windows.ts";
import { modelUsageOf } from "../llm/model-usage.ts";
import { addUsage, costReport, priceFor, usageSince } from "../llm/pricing.ts";
import type { AskApproval } from "../mcp/servers.ts";
import { errorMessage } from "../protocol/errors.ts";
import type { RunResult } from "../protocol/events.ts";
import type { ContentBlock, Usage } from "../protocol/message.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../tools/types.ts";
import type { SessionParts } from "./session-parts.ts";
import { beginCheckpointTurn, checkpointHook } from "./session-rewind.ts";

/** The task id of the session's own agent (sub-agents have theirs). */
export const MAIN_TASK = "main";

export async function submitPrompt(s: SessionParts, input: ContentBlock[], signal: AbortSignal): Promise<RunResult> {
  const { config, mcp, tools, context, tasks, store, sandbox } = s;
  const started = Date.now();
  // An interrupt while servers start goes on at once (runAgent then ends the run as interrupted).
  const interrupted = new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
  const approve = s.options.approve;
  await Promise.race([mcp.ready(approve ? askProjectServer(approve) : undefined), interrupted]);
  mcp.install(tools);
  const prompt = await mcp.attachResources(await mcp.expandPrompt(input, signal), signal);
  const mcpServers = mcp.reports().map((r) => ({ name: r.name, status: r.status }));
  const { provider } = s;
  s.emit({
    type: "init",
    session_id: store.id,
    model: provider.model,
    provider: provider.name,
    cwd: config.cwd,
    tools: [...tools.keys()],
    ...(mcpServers.length ? { mcp_servers: mcpServers } : {}),
  });
  const before: Before = {
    compactions: context.compactions,
    summary: { ...context.summaryUsage },
    tasks: tasks.usage(),
    apiMs: provider.apiMs + tasks.apiMs(),
  };
  // `/rewind`'s checkpoints: this prompt's first write of each file is saved before it.
  const endTurn = beginCheckpointTurn(store, (message) => s.emit({ type: "warning", message }));
  const out = await runAgent({
    config,
    provider,
    store,
    tools,
    services: {
      shell: sandbox.shell,
      saveImage: (bytes, mediaType) => store.saveImage(bytes, mediaType),
      // Read at each call: a mode switched mid-turn (Shift+Tab) judges the next tool call.
      get permissions() {
        return sandbox.permissions;
      },
      granted: s.granted,
      approve,
      editorFiles: s.options.editorFiles,
      checkpoints: checkpointHook(store),
    },
    systemPrompt: s.systemPrompt,
    prompt,
    context,
    taskId: MAIN_TASK,
    signal,
    emit: s.emit,
    tasks,
    refreshTools: () => mcp.refresh(tools),
    hooks: s.hooks,
    // The sandbox is probed once the first request has gone out; its tool calls wait for the answer.
    answerJudge: s.structured?.judge(),
    beforeTools: () => Promise.race([sandbox.ready(), interrupted]),
    onRequestSent: s.firstRequestSent,
  });
  await endTurn();
  sandbox.shell.releaseTask(MAIN_TASK);
  // Saved before the result is told, so the result can say whether it was.
  let saveError: string | undefined;
  try {
    await store.flush();
  } catch (err) {
    saveError = `could not save the session: ${errorMessage(err)}`;
  }
  s.monitor.check();
  const result = runResult(s, out, before, Date.now() - started, saveError);
  s.emit({ type: "result", result });
  return result;
}

/** The session's counters as a submission starts. */
interface Before {
  compactions: number;
  summary: Usage;
  tasks: Usage;
  /** The model's requests' milliseconds so far, the sub-agents' included. */
  apiMs: number;
}

/** The result of one run: its usage with summary calls and sub-agents, cost, counters, save error. */
function runResult(s: SessionParts, out: RunOutput, before: Before, durationMs: number, saveError?: string) {
  const { context, tasks, store, provider, config } = s;
  // Summary calls and sub-agents (priced as the session's model, which they run) cost tokens too.
  const usage = { ...out.usage };
  addUsage(usage, usageSince(context.summaryUsage, before.summary));
  addUsage(usage, usageSince(tasks.usage(), before.tasks));
  const cost = costReport(usage, priceFor(provider.name, provider.model, config.price));
  const memory = s.monitor.stats();
  const modelUsage = modelUsageOf({
    model: provider.model,
    usage,
    usd: cost.usd,
    contextWindow: contextWindowFor(provider.model, config.context.window),
    maxOutputTokens: config.maxTokens,
  });
  const result: RunResult = {
    subtype: saveError && out.subtype === "success" ? "error_during_execution" : out.subtype,
    is_error: out.subtype !== "success" || saveError !== undefined,
    result: out.result,
    session_id: store.id,
    num_turns: out.numTurns,
    duration_ms: durationMs,
    duration_api_ms: Math.round(provider.apiMs + tasks.apiMs() - before.apiMs),
    usage,
    modelUsage,
    ...(cost.usd !== null ? { total_cost_usd: cost.usd } : {}),
    stats: {
      ...s.sandbox.shell.stats(),
      tasks_run: tasks.stats().tasksRun,
      ...store.stats(),
      memory_actions: memory.actions,
      peak_heap_mb: memory.peakHeapMb,
      peak_rss_mb: memory.peakRssMb,
      compaction_requested: s.compactionRequested,
      compactions: context.compactions - before.compactions,
      cost,
    },
  };
  if (saveError) result.error = saveError;
  if (out.stopReason) result.stop_reason = out.stopReason;
  if (out.structuredOutput !== undefined) result.structured_output = out.structuredOutput;
  if (out.terminalReason) result.terminal_reason = out.terminalReason;
  return result;
}

/** A project's `.mcp.json` server, put to the user through the approval prompt before it starts. */
function askProjectServer(approve: (request: ApprovalRequest) => Promise<ApprovalAnswer>): AskApproval {
  return async (server) => {
    const answer = await approve({
      tool: `mcp__${server.name}`,
      input: server.raw,
      reason:
        `the project's ${server.origin} asks to start the MCP server "${server.name}" (a program of its choice); ` +
        "yes starts it, now and in later sessions while this entry stays the same",
      rule: `mcp__${server.name}`,
      exact: false,
    });
    return answer === "yes" || answer === "always";
  };
}
