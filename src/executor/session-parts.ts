// The parts one open session owns — store, provider, MCP servers, sandbox and shell pool, tools
// and system prompt, context manager, memory monitor, sub-agents — put together in the order each
// needs the others. Nothing here runs the agent (session-submit.ts) or answers the user
// (session-handle.ts).

import { startupMark } from "../runtime/startup-trace.ts";
import type { StructuredOutput } from "../agent/structured-output.ts";
import { createSubAgents, type TaskLauncher } from "../agent/sub-agents.ts";
import { findInstructions, renderSystemPrompt, type PromptEnvironment } from "../agent/system-prompt.ts";
import type { Config } from "../config/config.ts";
import { ContextManager } from "../context/condense.ts";
import { relieveMemoryPressure } from "../context/memory-pressure.ts";
import { selectProvider } from "../llm/select.ts";
import type { Provider } from "../llm/types.ts";
import { mcpSessionInput, serversFromConfig } from "../mcp/from-config.ts";
import { type McpServers, startMcpServers } from "../mcp/servers.ts";
import type { ConfiguredServer } from "../mcp/sources.ts";
import { type MemoryMonitor, startMemoryMonitor } from "../memory/monitor.ts";
import { buildPolicy } from "../policy/build-policy.ts";
import { redactEvent } from "../policy/secret-redaction.ts";
import type { EventSink } from "../protocol/events.ts";
import { removeAbandonedSessions } from "../store/abandoned-sessions.ts";
import { openSession } from "../store/session.ts";
import type { EditorFiles } from "../tools/editor-files.ts";
import { agentKind } from "../tools/registry.ts";
import { offeredTools } from "../tools/offered-tools.ts";
import type { ApprovalAnswer, ApprovalRequest, Tool } from "../tools/types.ts";
import { movedSessionWarning } from "./resumed-folder.ts";
import { resumedModel } from "./resumed-model.ts";
import { type HookSource, createSessionHooks, type SessionHooks } from "../hooks/index.ts";
import { sandboxPlan } from "../sandbox/plan.ts";
import { type SessionSandbox, createSessionSandbox } from "./session-sandbox.ts";
import { checkpointsOf } from "./session-rewind.ts";

export interface RuntimeOptions {
  config: Config;
  resume?: { id: string } | { latest: true };
  emit: EventSink;
  /** Asks the user about a tool call the policy does not allow by itself (interactive sessions). */
  approve?(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /** The editor's view of files (`synapse acp` with a client that offers them): the main agent's Read, Write, Edit. */
  editorFiles?: EditorFiles;
  /**
   * Opens only once the sandbox probe has answered: the interactive session, whose status line shows
   * the sandbox from its first frame and whose user is still typing. Elsewhere the first request
   * goes out beside the probe (only tool calls wait for it).
   */
  waitForSandbox?: boolean;
  /** An Agent SDK program's system prompt: `replace` stands for Synapse's own, `append` follows it. */
  systemPrompt?: { replace?: string; append?: string };
  /** Hook sources besides the config's commands (an Agent SDK program's callbacks, src/agent-sdk). */
  hookSources?: readonly HookSource[];
  /** MCP servers besides the configured ones (an Agent SDK program's in-process servers). */
  mcpServers?: readonly ConfiguredServer[];
  /** `--session-id` (the new session's id) and `--fork-session` (resume into a copy). */
  newSession?: { id?: string; fork?: boolean };
}

type OpenedStore = Awaited<ReturnType<typeof openSession>>["store"];

export interface SessionParts {
  readonly config: Config;
  readonly options: RuntimeOptions;
  /** The session's events, redacted: error texts must not carry a key to the terminal or a log. */
  readonly emit: EventSink;
  /** The model the next request goes to (`/model` replaces it). */
  provider: Provider;
  readonly store: OpenedStore;
  /** Removes folders of runs killed before their first message (started once; awaited at close). */
  readonly sweep: () => Promise<unknown>;
  /**
   * The session's first request is on its way: the start-up work it need not wait for (the sandbox
   * probe, the sweep) starts now, off the main thread's way to the first byte on the socket.
   */
  readonly firstRequestSent: () => void;
  readonly mcp: McpServers;
  readonly sandbox: SessionSandbox;
  /** Rules the user allowed for the rest of the session. */
  readonly granted: string[];
  readonly tools: Map<string, Tool>;
  readonly systemPrompt: string;
  /** --json-schema: what the prompt asks for and the judge of each final answer. */
  readonly structured: StructuredOutput | undefined;
  readonly context: ContextManager;
  readonly monitor: MemoryMonitor;
  readonly tasks: TaskLauncher;
  /** Hook commands and callbacks (src/hooks). */
  readonly hooks: SessionHooks;
  /** Memory pressure asked for a condense during this session. */
  compactionRequested: boolean;
}

export async function openSessionParts(options: RuntimeOptions): Promise<SessionParts> {
  const { config } = options;
  // Before anything opens: an invalid rule is a configuration error that names it.
  const checked = buildPolicy(config);
  // Error texts (a provider's message, a warning) must not carry a key to the terminal or a log.
  const emit: EventSink = (event) => options.emit(redactEvent(event, checked.secrets));
  const warn = (message: string) => emit({ type: "warning", message });
  // Probed once per process, after the first request went out; only a tool call waits for its answer.
  const sandbox = createSessionSandbox(config, checked, emit);
  const selected = selectProvider(config);
  // The SDK loads while the session's files are written (its import is most of the start's CPU).
  selected.prepare?.();
  // Read before the session opens: a bad --mcp-config is a usage error before anything starts.
  const mcpConfigured = [...serversFromConfig(config, warn), ...(options.mcpServers ?? [])];
  // --json-schema: a bad schema is a usage error before the session opens; ajv loads only here.
  const structured = config.outputSchema
    ? await (await import("../agent/structured-output.ts")).loadStructuredOutput(config.outputSchema)
    : undefined;
  const { store, provider } = await openStoreAndModel(options, selected, emit);
  // Folders of runs killed before their first message, removed beside this run (off its start
  // path: one look per stored session) and awaited at close.
  let swept: Promise<unknown> | undefined;
  const sweep = () => (swept ??= removeAbandonedSessions(config.home, store.id));
  const firstRequestSent = () => {
    sandbox.start();
    sweep();
  };
  // Started now, in parallel with everything else; the first request waits for them (bounded).
  const mcp = startMcpServers(mcpSessionInput(config, mcpConfigured, store.dir, warn));
  const kind = agentKind(config.permissionMode);
  // `--tools` (Claude Code's): the others are not offered at all, as there (and denied besides);
  // nor is a tool a deny rule refuses every call of.
  const tools: Map<string, Tool> = offeredTools(kind, config);
  const { promptEnv, systemPrompt } = sessionPrompt(options, [...tools.keys()], structured);
  const granted: string[] = [];
  const hooks = sessionHooks(options, store, sandbox, warn);
  // The parts below read the session's current provider and permission mode through it.
  const base = {
    config,
    options,
    emit,
    provider,
    store,
    sweep,
    firstRequestSent,
    mcp,
    sandbox,
    granted,
    tools,
    systemPrompt,
    structured,
  };
  const session = Object.assign(base, { compactionRequested: false });
  // One per session: the memory monitor's compaction request and /compact reach the same context.
  const context = new ContextManager({
    config,
    get provider() {
      return session.provider;
    },
    store,
    system: systemPrompt,
    tools: [...tools.values()].map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
    emit,
    preCompact: (trigger, focus, signal) => hooks.preCompact(trigger, focus, signal),
  });
  const monitor = startMemoryMonitor({
    config: config.memory,
    onWarn: warn,
    onCritical: (reading) => {
      session.compactionRequested = true;
      warn(relieveMemoryPressure(reading, { store, context }).message);
    },
  });
  // Sub-agents use the session's current model; their worker pool starts with the first task.
  const tasks = createSubAgents({
    config,
    shell: sandbox.shell,
    // Read as each task starts, which is after its tool call waited for the probe.
    get sandboxed() {
      return sandbox.sandboxed;
    },
    sessionDir: store.dir,
    promptEnv,
    modelSpec: () => `${session.provider.name}/${session.provider.model}`,
    granted: () => granted,
    permissionMode: () => sandbox.permissions.mode,
    mcpTools: () => new Map([...tools].filter(([name]) => name.startsWith("mcp__"))),
    hooks: () => (hooks.active ? hooks : undefined),
    // `/rewind`: a task's writes are checkpointed under the prompt that started it.
    checkpointTurn: () => checkpointsOf(store).currentTurn(),
  });
  startupMark("session-open");
  return Object.assign(session, { context, monitor, tasks, hooks });
}

/** The system prompt (Synapse's own, or an Agent SDK program's) and the environment it names. */
function sessionPrompt(options: RuntimeOptions, toolNames: string[], structured: StructuredOutput | undefined) {
  const { config } = options;
  const promptEnv: PromptEnvironment = {
    cwd: config.cwd,
    platform: `${process.platform} ${process.arch}`,
    date: new Date(),
    instructions: findInstructions(config.cwd),
  };
  const own = options.systemPrompt?.replace ?? renderSystemPrompt(promptEnv, toolNames);
  const appended = options.systemPrompt?.append ? `\n\n${options.systemPrompt.append}` : "";
  return { promptEnv, systemPrompt: own + appended + (structured?.promptSuffix ?? "") };
}

/** The session's hooks: the configured commands and the caller's own sources. */
function sessionHooks(
  options: RuntimeOptions,
  store: OpenedStore,
  sandbox: SessionSandbox,
  warn: (message: string) => void,
): SessionHooks {
  const { config } = options;
  const hooks = createSessionHooks({
    hooks: config.hooks,
    home: config.home,
    cwd: config.cwd,
    sessionId: store.id,
    sessionDir: store.dir,
    resumed: options.resume !== undefined,
    permissionMode: () => sandbox.permissions.mode,
    sandboxPlan: async () => {
      await sandbox.ready();
      return sandbox.state && sandboxPlan(config, sandbox.state);
    },
    env: config.shell.env,
    approve: options.approve,
    warn,
  });
  for (const source of options.hookSources ?? []) hooks.addSource(source);
  return hooks;
}

/** The session's store, opened or resumed (with its lock), and the model it continues with. */
async function openStoreAndModel(
  options: RuntimeOptions,
  selected: Provider,
  emit: EventSink,
): Promise<{ store: OpenedStore; provider: Provider }> {
  const { config } = options;
  let provider = selected;
  const { store } = await openSession({
    home: config.home,
    cwd: config.cwd,
    model: `${provider.name}/${provider.model}`,
    keepRecordedModel: !config.modelFromFlag,
    config: config.store,
    resume: options.resume,
    ...options.newSession,
    onWarning: (message) => emit({ type: "warning", message }),
  });
  if (options.resume) {
    // The conversation speaks of that folder's files; the tools would act on this one's.
    const startedIn = store.meta().cwd;
    if (startedIn && startedIn !== config.cwd)
      emit({ type: "warning", message: movedSessionWarning(store.meta().id, startedIn, config.cwd) });
    const recorded = store.meta().model;
    const resumed = resumedModel(config, provider, recorded);
    provider = resumed.provider;
    if (resumed.warning) emit({ type: "warning", message: resumed.warning });
    if (`${provider.name}/${provider.model}` !== recorded)
      store.updateMeta({ model: `${provider.name}/${provider.model}` });
  }
  return { store, provider };
}
