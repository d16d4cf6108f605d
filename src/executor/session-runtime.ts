// Everything one session owns while it is open — message store, shell pool, memory monitor,
// provider — and one submission run through the agent. Closing it leaves nothing behind.

import { readFile, stat } from "node:fs/promises";
import { type CompactOutcome, ContextManager } from "../context/condense.ts";
import { runAgent } from "../agent/runner.ts";
import { createSubAgents } from "../agent/sub-agents.ts";
import { findInstructions, renderSystemPrompt } from "../agent/system-prompt.ts";
import type { Config, PermissionMode } from "../config/config.ts";
import { selectProvider } from "../llm/select.ts";
import { startMemoryMonitor } from "../memory/monitor.ts";
import { UsageError, errorMessage } from "../protocol/errors.ts";
import type { EventSink, RunResult } from "../protocol/events.ts";
import type { ContentBlock, ImageBlock, Message, Usage } from "../protocol/message.ts";
import { addUsage, costReport, priceFor, usageSince } from "../llm/pricing.ts";
import { sandboxPlan } from "../sandbox/plan.ts";
import { sandboxState, sandboxWarningOnce } from "../sandbox/probe.ts";
import { isSandboxed, type SandboxState } from "../sandbox/types.ts";
import { createShellPool } from "../shell/shell-pool.ts";
import { removeAbandonedSessions } from "../store/abandoned-sessions.ts";
import { openSession } from "../store/session.ts";
import { resumedModel } from "./resumed-model.ts";
import { type UserToolInput, mentionBlock, runUserShell, runUserTool } from "./user-shell.ts";
import { imageMediaType } from "../tools/binary.ts";
import { type AgentKind, toolsFor } from "../tools/registry.ts";
import { buildPolicy, redactEvent } from "../policy/policy.ts";
import { type ApprovalAnswer, type ApprovalRequest, type Tool, toolLimits } from "../tools/types.ts";
import type { EditorFiles } from "../tools/editor-files.ts";
import { mcpSessionInput, serversFromConfig } from "../mcp/from-config.ts";
import { type AskApproval, type ServerReport, startMcpServers } from "../mcp/servers.ts";

export interface RuntimeOptions {
  config: Config;
  resume?: { id: string } | { latest: true };
  emit: EventSink;
  /** Asks the user about a tool call the policy does not allow by itself (interactive sessions). */
  approve?(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /** The editor's view of files (`synapse acp` with a client that offers them): the main agent's Read/Write/Edit use it. */
  editorFiles?: EditorFiles;
}

export interface SessionRuntime {
  readonly sessionId: string;
  /** `provider/model` the next request goes to. */
  readonly model: string;
  /** Switches the model for the rest of the session and records it (UsageError: provider not configured). */
  setModel(spec: string): void;
  /** The permission mode the next tool call is judged in. */
  readonly permissionMode: PermissionMode;
  /** Shift+Tab in the interactive session: from the next tool call on (sub-agents from their start). */
  setPermissionMode(mode: PermissionMode): void;
  /** Counters for `/status`. */
  facts(): RuntimeFacts;
  /** The MCP servers (`/mcp`), once those that start unasked have connected or failed (or `signal` fired). */
  mcpServers(signal: AbortSignal): Promise<ServerReport[]>;
  /** `/mcp__<server>__<prompt>` names of the prompts of the servers connected so far (/help, completion). */
  mcpPromptCommands(): string[];
  /** The newest messages in memory (a resumed session shows where it left off). */
  recent(count: number): readonly Message[];
  attachImage(path: string): Promise<ImageBlock>;
  submit(prompt: ContentBlock[], signal: AbortSignal): Promise<RunResult>;
  /** `!command`: the user's own command through the Bash tool (same sandbox and gate), output kept for the model. */
  runShell(command: string, signal: AbortSignal): Promise<void>;
  /** An `@path` mention: the file through Read (its checks, its bounds); undefined when Read refused or failed. */
  readMention(path: string, signal: AbortSignal): Promise<string | undefined>;
  /**
   * Condenses the session's context now (`/compact [focus]`): a summary with the focus text added
   * to its prompt. Interrupted (InterruptedError), the session is left exactly as it was.
   */
  compact(focus: string | undefined, signal: AbortSignal, keepLast?: number): Promise<CompactOutcome>;
  /** Flushes the archive and stops everything; safe to call twice. */
  close(): Promise<void>;
  /** Synchronous last resort for process exit: kills every process the session started. */
  killNow(): void;
}

export interface RuntimeFacts {
  messagesInMemory: number;
  shells: { spawned: number; reused: number; commandsRun: number };
  memory: { peakRssMb: number; peakHeapMb: number };
  /** Where commands run (/status, the status line). */
  sandbox: SandboxState;
  permissionMode: PermissionMode;
}

const MAIN_TASK = "main";

export async function openRuntime(opts: RuntimeOptions): Promise<SessionRuntime> {
  const { config } = opts;
  // Before anything opens: an invalid rule is a configuration error that names it.
  const checked = buildPolicy(config);
  // Probed while the session opens (starting a sandbox takes a few ms); once per process.
  const probing = sandboxState(config.sandbox, config.shell.env);
  // Error texts (a provider's message, a warning) must not carry a key to the terminal or a log.
  const emit: EventSink = (event) => opts.emit(redactEvent(event, checked.secrets));
  const granted: string[] = [];
  let provider = selectProvider(config);
  // Read before the session opens: a bad --mcp-config is a usage error before anything starts.
  const mcpConfigured = serversFromConfig(config, (message) => emit({ type: "warning", message }));
  const { store } = await openSession({
    home: config.home,
    cwd: config.cwd,
    model: `${provider.name}/${provider.model}`,
    keepRecordedModel: !config.modelFromFlag,
    config: config.store,
    resume: opts.resume,
    onWarning: (message) => emit({ type: "warning", message }),
  });
  // Folders of runs killed before their first message, removed beside this run (off its start
  // path: one look per stored session) and awaited at close.
  const sweep = removeAbandonedSessions(config.home, store.id);
  if (opts.resume) {
    const recorded = store.meta().model;
    const resumed = resumedModel(config, provider, recorded);
    provider = resumed.provider;
    if (resumed.warning) emit({ type: "warning", message: resumed.warning });
    if (`${provider.name}/${provider.model}` !== recorded)
      store.updateMeta({ model: `${provider.name}/${provider.model}` });
  }
  // Started now, in parallel with everything else; the first request waits for them (bounded).
  const mcp = startMcpServers(
    mcpSessionInput(config, mcpConfigured, store.dir, (message) => emit({ type: "warning", message })),
  );
  const sandbox = await probing;
  // Commands confined by the kernel need not ask in default mode; unconfined, the policy fails closed.
  let permissions = buildPolicy(config, { sandboxed: isSandboxed(sandbox) });
  const sandboxWarning = sandboxWarningOnce(sandbox);
  if (sandboxWarning) emit({ type: "warning", message: sandboxWarning });
  const shell = createShellPool(config.shell, sandboxPlan(config, sandbox));
  let compactionRequested = false;
  const monitor = startMemoryMonitor({
    config: config.memory,
    onWarn: (message) => emit({ type: "warning", message }),
    onCritical: (reading) => {
      // Never below what the model's context still holds: those leave memory when the requested
      // condense has summarised them, not before.
      const keep = Math.max(8, Math.floor(store.window().length / 2), context.messagesInContext());
      store.shrink(keep);
      const freed = store.dropToolOutputs(4);
      compactionRequested = true;
      context.request();
      emit({
        type: "warning",
        message: `memory use is critical (RSS ${reading.rssMb} MB, heap ${reading.heapMb} MB): kept the newest ${keep} messages in memory, trimmed older tool outputs (${Math.round(freed / 1024)} kB; all are on disk) and asked for compaction`,
      });
    },
  });
  const kind: AgentKind = config.permissionMode === "plan" ? "plan" : "main";
  const tools: Map<string, Tool> = toolsFor(kind);
  const promptEnv = {
    cwd: config.cwd,
    platform: `${process.platform} ${process.arch}`,
    date: new Date(),
    instructions: findInstructions(config.cwd),
  };
  const systemPrompt = renderSystemPrompt(promptEnv, [...tools.keys()]);
  // One per session: the memory monitor's compaction request and /compact reach the same context.
  const context = new ContextManager({
    config,
    get provider() {
      return provider;
    },
    store,
    system: systemPrompt,
    tools: [...tools.values()].map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
    emit,
  });
  // Sub-agents use the session's current model; their worker pool starts with the first task.
  const tasks = createSubAgents({
    config,
    shell,
    sandboxed: isSandboxed(sandbox),
    sessionDir: store.dir,
    promptEnv,
    modelSpec: () => `${provider.name}/${provider.model}`,
    granted: () => granted,
    permissionMode: () => permissions.mode,
    mcpTools: () => new Map([...tools].filter(([name]) => name.startsWith("mcp__"))),
  });
  let closed = false;
  // A tool call the user asked for (`!command`, an `@file` mention): the main task's gate and tools.
  const userToolInput = (signal: AbortSignal): UserToolInput => ({
    tools,
    emit,
    context: {
      cwd: config.cwd,
      signal,
      taskId: MAIN_TASK,
      limits: toolLimits(config),
      services: {
        shell,
        get permissions() {
          return permissions;
        },
        granted,
        approve: opts.approve,
        editorFiles: opts.editorFiles,
      },
      warn: (message) => emit({ type: "warning", message }),
    },
  });

  return {
    sessionId: store.id,

    get model() {
      return `${provider.name}/${provider.model}`;
    },

    setModel(spec) {
      provider = selectProvider({ ...config, model: spec });
      store.updateMeta({ model: `${provider.name}/${provider.model}` });
    },

    get permissionMode() {
      return permissions.mode;
    },

    setPermissionMode(mode) {
      permissions = { ...permissions, mode };
    },

    recent(count) {
      return store.window().slice(-count);
    },

    facts() {
      const s = shell.stats();
      const m = monitor.stats();
      return {
        messagesInMemory: store.window().length,
        shells: { spawned: s.shells_spawned, reused: s.shells_reused, commandsRun: s.commands_run },
        memory: { peakRssMb: m.peakRssMb, peakHeapMb: m.peakHeapMb },
        sandbox,
        permissionMode: permissions.mode,
      };
    },

    mcpPromptCommands() {
      return mcp.reports().flatMap((r) => r.prompts);
    },

    async mcpServers(signal) {
      const stopped = new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
      await Promise.race([mcp.settled(), stopped]);
      return mcp.reports();
    },

    async attachImage(path) {
      let bytes: Uint8Array;
      try {
        // Checked before reading: a FIFO would block forever, /dev/zero would never end.
        const info = await stat(path);
        if (!info.isFile()) throw new Error("not a regular file");
        const limit = config.store.contextMaxImageBytes;
        if (info.size > limit) {
          throw new Error(
            `${(info.size / 1048576).toFixed(1)} MB is more than the ${(limit / 1048576).toFixed(1)} MB a request may carry (SYNAPSE_CONTEXT_MAX_IMAGE_BYTES)`,
          );
        }
        bytes = await readFile(path);
      } catch (err) {
        throw new UsageError(`cannot use image ${path}: ${errorMessage(err)}`);
      }
      const mediaType = imageMediaType(bytes);
      if (!mediaType) throw new UsageError(`${path} is not a PNG, JPEG, GIF or WebP image`);
      return { type: "image", image: await store.saveImage(bytes, mediaType) };
    },

    async submit(prompt, signal) {
      const started = Date.now();
      // An interrupt while servers start goes on at once (runAgent then ends the run as interrupted).
      const interrupted = new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
      await Promise.race([mcp.ready(opts.approve ? askProjectServer(opts.approve) : undefined), interrupted]);
      mcp.install(tools);
      prompt = await mcp.attachResources(await mcp.expandPrompt(prompt, signal), signal);
      const mcpServers = mcp.reports().map((r) => ({ name: r.name, status: r.status }));
      emit({
        type: "init",
        session_id: store.id,
        model: provider.model,
        provider: provider.name,
        cwd: config.cwd,
        tools: [...tools.keys()],
        ...(mcpServers.length ? { mcp_servers: mcpServers } : {}),
      });
      const compactionsBefore = context.compactions;
      const summaryBefore: Usage = { ...context.summaryUsage };
      const out = await runAgent({
        config,
        provider,
        store,
        tools,
        services: {
          shell,
          saveImage: (bytes, mediaType) => store.saveImage(bytes, mediaType),
          // Read at each call: a mode switched mid-turn (Shift+Tab) judges the next tool call.
          get permissions() {
            return permissions;
          },
          granted,
          approve: opts.approve,
          editorFiles: opts.editorFiles,
        },
        systemPrompt,
        prompt,
        context,
        taskId: MAIN_TASK,
        signal,
        emit,
        tasks,
        refreshTools: () => mcp.refresh(tools),
      });
      shell.releaseTask(MAIN_TASK);
      // Saved before the result is told, so the result can say whether it was.
      let saveError: string | undefined;
      try {
        await store.flush();
      } catch (err) {
        saveError = `could not save the session: ${errorMessage(err)}`;
      }
      monitor.check();
      const shellStats = shell.stats();
      const storeStats = store.stats();
      // Summary calls cost tokens too.
      const usage = { ...out.usage };
      addUsage(usage, usageSince(context.summaryUsage, summaryBefore));
      const cost = costReport(usage, priceFor(provider.name, provider.model, config.price));
      const memory = monitor.stats();
      const result: RunResult = {
        subtype: saveError && out.subtype === "success" ? "error_during_execution" : out.subtype,
        is_error: out.subtype !== "success" || saveError !== undefined,
        result: out.result,
        session_id: store.id,
        num_turns: out.numTurns,
        duration_ms: Date.now() - started,
        usage,
        ...(cost.usd !== null ? { total_cost_usd: cost.usd } : {}),
        stats: {
          ...shellStats,
          tasks_run: tasks.stats().tasksRun,
          ...storeStats,
          memory_actions: memory.actions,
          peak_heap_mb: memory.peakHeapMb,
          peak_rss_mb: memory.peakRssMb,
          compaction_requested: compactionRequested,
          compactions: context.compactions - compactionsBefore,
          cost,
        },
      };
      if (saveError) result.error = saveError;
      if (out.stopReason) result.stop_reason = out.stopReason;
      emit({ type: "result", result });
      return result;
    },

    async readMention(path, signal) {
      const { text, failed } = await runUserTool("Read", { path }, userToolInput(signal));
      shell.releaseTask(MAIN_TASK);
      return failed ? undefined : mentionBlock(path, text);
    },

    async runShell(command, signal) {
      const message = await runUserShell(command, userToolInput(signal));
      shell.releaseTask(MAIN_TASK);
      store.append(message);
      context.noteAppended(message);
      await store.flush();
    },

    async compact(focus, signal, keepLast) {
      const outcome = await context.condense("manual", { signal, focus: focus?.trim() || undefined, keepLast });
      await store.flush();
      return outcome;
    },

    async close() {
      if (closed) return;
      closed = true;
      monitor.stop();
      await mcp.close();
      await tasks.close();
      await shell.close();
      await store.close();
      await sweep;
    },

    killNow() {
      shell.killAllNow();
      mcp.killNow();
      // A forced exit skips close(): the lock must not outlive the process all the same.
      store.releaseLockNow();
    },
  };
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
