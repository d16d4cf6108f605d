// The shape of synapse's configuration: the frozen `Config` every layer reads, the sources it is
// resolved from (flags, environment, config files), and the values each closed setting allows.

import type { HookSettings, HooksConfig } from "../protocol/hook-events.ts";
import type { OutputSchemaSource } from "./output-schema-source.ts";

export type OutputFormat = "text" | "json" | "stream-json";
export type PermissionMode = "default" | "accept-edits" | "bypass" | "plan";
/** How commands are confined (src/sandbox/): Codex's names. */
export type SandboxMode = "read-only" | "workspace-write" | "full-access";

export interface SandboxConfig {
  mode: SandboxMode;
  /** Commands may reach the network (--sandbox-network / `sandbox.network`). */
  network: boolean;
  /** SYNAPSE_BWRAP: the bwrap to use instead of the one on the trusted PATH (tests point it at nothing). */
  bwrapPath?: string;
}

export interface ShellConfig {
  poolMax: number;
  idleMax: number;
  idleMs: number;
  maxCd: number;
  commandTimeoutMs: number;
  maxCommandTimeoutMs: number;
  killGraceMs: number;
  outputMaxLines: number;
  outputMaxChars: number;
  /** The environment commands start with: the process's, minus `hiddenEnv` (see command-env.ts). */
  env: Readonly<Record<string, string>>;
  /** Names (and `PREFIX_*` patterns) kept out of every command's environment. */
  hiddenEnv: readonly string[];
  /** The hidden variables that are set: their values are blanked in /proc/<pid>/environ too. */
  hiddenSet: readonly string[];
}

export interface StoreConfig {
  maxMessages: number;
  maxBytes: number;
  flushMs: number;
  rotateBytes: number;
  contextMaxImages: number;
  contextMaxImageBytes: number;
}

/** Keeping the model's context within its window (context/condense.ts). */
export interface ContextConfig {
  /** SYNAPSE_CONTEXT_WINDOW: the model's window in tokens; undefined uses the known-models table. */
  window?: number;
  /** SYNAPSE_CONDENSE_THRESHOLD: condense past this percent of the window minus the output reserve. */
  thresholdPercent: number;
  /** SYNAPSE_COMPACT_KEEP_LAST: whole recent turns a summary keeps verbatim. */
  keepLastTurns: number;
  /** SYNAPSE_AUTO_CONDENSE / `autoCondense`: condense by itself (before the limit and after a too-long 400). */
  autoCondense: boolean;
}

export interface MemoryConfig {
  checkIntervalMs: number;
  warnMb: number;
  criticalMb: number;
}

export interface ProviderEndpoint {
  apiKey?: string;
  baseUrl?: string;
}

export interface Config {
  cwd: string;
  /** Where sessions live (SYNAPSE_HOME). */
  home: string;
  /** The user config folder (`$XDG_CONFIG_HOME/synapse`): the policy protects it like a secret. */
  configDir?: string;
  /** Where files unpacked from the binary (ripgrep) are kept: `$XDG_CACHE_HOME/synapse`. */
  cacheDir: string;
  /** Model spec as given (`provider/model` or a bare model name), if any. */
  model?: string;
  /**
   * `-m/--model` was given on this run: only then does `model` win over the model a resumed session
   * recorded (`/model`); SYNAPSE_MODEL and config files are defaults for new sessions.
   */
  modelFromFlag?: boolean;
  outputFormat: OutputFormat;
  /** Model turns before a run stops with error_max_turns; Infinity (the default) for no cap. */
  maxTurns: number;
  maxTokens: number;
  quiet: boolean;
  /** Colour is allowed (no NO_COLOR, --no-color or TERM=dumb); each stream still needs a terminal. */
  color: boolean;
  /** TERM=dumb: the interactive session writes plain lines, never moving the cursor. */
  dumbTerminal: boolean;
  /** How the interactive session calls the user back (SYNAPSE_NOTIFY), after how long a turn (SYNAPSE_NOTIFY_AFTER). */
  notify: { kind: NotifyKind; afterSeconds: number };
  /** The interactive session's colours (SYNAPSE_THEME, else the terminal's COLORFGBG). */
  theme: ThemeName;
  permissionMode: PermissionMode;
  /** Allow and deny rules (flags, then project, then user config); checked in src/policy. */
  permissions: PermissionRules & { origins?: RuleOrigin[] };
  /** More workspace folders (--add-dir), absolute. */
  addDirs: string[];
  /** `--tools` (Claude Code's flag): the only built-in tools the model is offered; absent: all. */
  tools?: readonly string[];
  /** The OS sandbox commands run in (--sandbox, --sandbox-network, SYNAPSE_SANDBOX, `sandbox`). */
  sandbox: SandboxConfig;
  /** Values of the hidden variables (provider keys, SYNAPSE_HIDE_ENV): redacted wherever shown. */
  secrets: string[];
  maxRetries: number;
  /** Identical tool calls in a row (or a repeated text) before the model is warned, then stopped; 0: off. */
  loopLimit: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A model request silent for this long is abandoned and retried. */
  streamIdleMs: number;
  /** After this long with no byte on a stdin pipe: with a prompt argument go on without stdin, else say it waits. */
  stdinWaitMs: number;
  anthropic: ProviderEndpoint;
  openai: ProviderEndpoint;
  shell: ShellConfig;
  store: StoreConfig;
  memory: MemoryConfig;
  context: ContextConfig;
  toolResultSummaryLimit: number;
  tasks: TaskConfig;
  /** The user's price for the model in use (SYNAPSE_PRICE, config `price`); else the table's. */
  price?: PriceOverride;
  /** --max-budget-usd / SYNAPSE_MAX_BUDGET_USD: a run stops before a request would pass it. */
  maxBudgetUsd?: number;
  /** MCP servers (src/mcp); absent in hand-made configs of tests: none. */
  mcp?: McpConfig;
  /** Hook commands (src/hooks): the user's, and the project's apart (they need approval). */
  hooks?: HooksConfig;
  /** --json-schema / --output-schema: the final answer must match it (agent/structured-output.ts). */
  outputSchema?: OutputSchemaSource;
}

/** Where MCP servers are configured and the bounds they run within (src/mcp). */
export interface McpConfig {
  /** The user config's `mcpServers` (never the project's own config: a repository starts nothing by it). */
  userServers: Record<string, unknown>;
  /** --mcp-config values (a file or JSON text), in order. */
  configs: string[];
  /** --strict-mcp-config: only the --mcp-config servers. */
  strict: boolean;
  /** --allow-project-mcp: the project's .mcp.json servers start unasked this run. */
  allowProject: boolean;
  /** SYNAPSE_MCP_TIMEOUT_MS: a server's start and handshake. */
  startTimeoutMs: number;
  /** SYNAPSE_MCP_TOOL_TIMEOUT_MS: one tool call. */
  toolTimeoutMs: number;
  /** SYNAPSE_MAX_MCP_OUTPUT_TOKENS: a tool result's text (about 4 characters a token). */
  maxOutputTokens: number;
}

/** Dollars per million tokens: input and output, the cache's prices optional (llm/pricing.ts). */
export interface PriceOverride {
  input: number;
  output: number;
  cacheWrite?: number;
  cacheRead?: number;
}

/** Sub-agents (`task:explore` / `task:general`) in worker threads. */
export interface TaskConfig {
  /** Most sub-agents running at once (SYNAPSE_MAX_PARALLEL_TASKS); the rest wait for a slot. */
  maxParallel: number;
  timeoutMs: number;
  /** A worker whose heap grows past this is terminated (SYNAPSE_TASK_MAX_HEAP_MB). */
  maxHeapMb: number;
}

/** The subset of flags that feed configuration (the rest are run options). */
export interface ConfigFlags {
  cwd?: string;
  model?: string;
  outputFormat?: string;
  maxTurns?: string;
  quiet?: boolean;
  noColor?: boolean;
  permissionMode?: string;
  allow?: string[];
  deny?: string[];
  addDir?: string[];
  sandbox?: string;
  sandboxNetwork?: boolean;
  maxBudgetUsd?: string;
  jsonSchema?: string;
  outputSchema?: string;
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
  allowProjectMcp?: boolean;
  allowProjectHooks?: boolean;
  tools?: string[];
}

export interface PermissionRules {
  allow: string[];
  deny: string[];
  /**
   * Allow rules from the project's own .synapse/config.json: a cloned repository wrote them, so
   * they only let commands run that `default` mode would run anyway (see src/policy).
   */
  projectAllow?: string[];
}

/** A config file's rule and where it is (`permissions.deny` of that file), so an error can name it. */
export interface RuleOrigin {
  rule: string;
  file: string;
  key: "permissions.allow" | "permissions.deny";
}

/** Keys accepted in config.json files (user and project). */
export type FileConfig = Partial<{
  model: string;
  maxTurns: number;
  maxTokens: number;
  permissionMode: PermissionMode;
  maxRetries: number;
  loopLimit: number;
  permissions: Partial<PermissionRules>;
  autoCondense: boolean;
  sandbox: Partial<{ mode: SandboxMode; network: boolean }>;
  price: PriceOverride;
  /** MCP servers by name (Claude Code's format); read from the user's config only. */
  mcpServers: Record<string, unknown>;
  /** Hooks in Claude Code's settings format (protocol/hook-events.ts). */
  hooks: HookSettings;
}>;

export interface ConfigSources {
  flags: ConfigFlags;
  env: Record<string, string | undefined>;
  projectFile?: FileConfig;
  userFile?: FileConfig;
  /** Where the files were read (a bad rule's error names its file). */
  projectFilePath?: string;
  userFilePath?: string;
  /** Process working directory, used when no -C is given. */
  processCwd: string;
  homeDir: string;
}

/** The environment as given: a variable set to "" counts as unset everywhere. */
export type Env = ConfigSources["env"];

export type NotifyKind = "bell" | "osc9" | "osc777" | "off";
export const NOTIFY_KINDS: readonly NotifyKind[] = ["bell", "osc9", "osc777", "off"];

export type ThemeName = "dark" | "light" | "colour-blind";
export const THEME_NAMES: readonly ThemeName[] = ["dark", "light", "colour-blind"];

export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];
export const PERMISSION_MODES: readonly PermissionMode[] = ["default", "accept-edits", "bypass", "plan"];
export const SANDBOX_MODES: readonly SandboxMode[] = ["read-only", "workspace-write", "full-access"];

/** Above every model's output limit (Claude's and GPT's are 128k tokens or less): a larger value is a typo. */
export const MAX_OUTPUT_TOKENS = 1_000_000;
