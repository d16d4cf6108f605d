// One config object: flags > environment > project config > user config > defaults, resolved once
// into a frozen value. Nothing else in the program reads process.env.

import { resolve as resolvePath } from "node:path";
import { UsageError } from "../protocol/errors.ts";

export type OutputFormat = "text" | "json" | "stream-json";
export type PermissionMode = "default" | "accept-edits" | "bypass" | "plan";

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
}

export interface StoreConfig {
  maxMessages: number;
  maxBytes: number;
  flushMs: number;
  rotateBytes: number;
  contextMaxImages: number;
  contextMaxImageBytes: number;
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
  /** Model spec as given (`provider/model` or a bare model name), if any. */
  model?: string;
  outputFormat: OutputFormat;
  maxTurns: number;
  maxTokens: number;
  quiet: boolean;
  /** Colour is allowed (no NO_COLOR, --no-color or TERM=dumb); each stream still needs a terminal. */
  color: boolean;
  permissionMode: PermissionMode;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A model request silent for this long is abandoned and retried. */
  streamIdleMs: number;
  /** How long a prompt argument waits for the first byte of a silent stdin pipe. */
  stdinWaitMs: number;
  anthropic: ProviderEndpoint;
  openai: ProviderEndpoint;
  shell: ShellConfig;
  store: StoreConfig;
  memory: MemoryConfig;
  toolResultSummaryLimit: number;
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
}

/** Keys accepted in config.json files (user and project). */
export type FileConfig = Partial<{
  model: string;
  maxTurns: number;
  maxTokens: number;
  permissionMode: PermissionMode;
  maxRetries: number;
}>;

export interface ConfigSources {
  flags: ConfigFlags;
  env: Record<string, string | undefined>;
  projectFile?: FileConfig;
  userFile?: FileConfig;
  /** Process working directory, used when no -C is given. */
  processCwd: string;
  homeDir: string;
}

const OUTPUT_FORMATS: OutputFormat[] = ["text", "json", "stream-json"];
const PERMISSION_MODES: PermissionMode[] = ["default", "accept-edits", "bypass", "plan"];

function int(env: ConfigSources["env"], name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || !Number.isInteger(n) || n < min) {
    throw new UsageError(`${name} must be a whole number >= ${min} (got "${raw}")`);
  }
  return n;
}

export function resolveConfig(src: ConfigSources): Config {
  const { flags, env } = src;
  const file: FileConfig = { ...src.userFile, ...src.projectFile };

  const outputFormat = (flags.outputFormat ?? "text") as OutputFormat;
  if (!OUTPUT_FORMATS.includes(outputFormat)) {
    throw new UsageError(`--output-format must be one of ${OUTPUT_FORMATS.join(", ")} (got "${flags.outputFormat}")`);
  }
  const permissionMode = (flags.permissionMode ?? env.SYNAPSE_PERMISSION_MODE ?? file.permissionMode ?? "default") as PermissionMode;
  if (!PERMISSION_MODES.includes(permissionMode)) {
    throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(", ")} (got "${permissionMode}")`);
  }
  let maxTurns = file.maxTurns ?? int(env, "SYNAPSE_MAX_TURNS", 50, 1);
  if (env.SYNAPSE_MAX_TURNS) maxTurns = int(env, "SYNAPSE_MAX_TURNS", 50, 1);
  if (flags.maxTurns !== undefined) {
    const n = Number(flags.maxTurns);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--max-turns must be a whole number >= 1 (got "${flags.maxTurns}")`);
    maxTurns = n;
  }

  const processCwd = src.processCwd;
  const cwd = flags.cwd ? resolvePath(processCwd, flags.cwd) : processCwd;
  const dataHome = env.XDG_DATA_HOME || `${src.homeDir}/.local/share`;
  const home = env.SYNAPSE_HOME ? resolvePath(processCwd, env.SYNAPSE_HOME) : `${dataHome}/synapse`;
  const noColor = flags.noColor || (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || env.TERM === "dumb";

  const config: Config = {
    cwd,
    home,
    model: flags.model ?? env.SYNAPSE_MODEL ?? file.model,
    outputFormat,
    maxTurns,
    maxTokens: int(env, "SYNAPSE_MAX_TOKENS", file.maxTokens ?? 8192, 1),
    quiet: flags.quiet ?? false,
    color: !noColor,
    permissionMode,
    maxRetries: int(env, "SYNAPSE_MAX_RETRIES", file.maxRetries ?? 4),
    retryBaseMs: int(env, "SYNAPSE_RETRY_BASE_MS", 1000),
    retryMaxMs: int(env, "SYNAPSE_RETRY_MAX_MS", 60_000),
    streamIdleMs: int(env, "SYNAPSE_STREAM_IDLE_MS", 300_000, 1),
    stdinWaitMs: int(env, "SYNAPSE_STDIN_WAIT_MS", 1000),
    anthropic: { apiKey: env.ANTHROPIC_API_KEY || undefined, baseUrl: env.ANTHROPIC_BASE_URL || undefined },
    openai: { apiKey: env.OPENAI_API_KEY || undefined, baseUrl: env.OPENAI_BASE_URL || undefined },
    shell: {
      poolMax: int(env, "SYNAPSE_SHELL_POOL_MAX", 8, 1),
      idleMax: int(env, "SYNAPSE_SHELL_IDLE_MAX", 2),
      idleMs: int(env, "SYNAPSE_SHELL_IDLE_MS", 60_000),
      maxCd: int(env, "SYNAPSE_SHELL_MAX_CD", 5),
      commandTimeoutMs: int(env, "SYNAPSE_COMMAND_TIMEOUT_MS", 120_000, 1),
      maxCommandTimeoutMs: int(env, "SYNAPSE_COMMAND_MAX_TIMEOUT_MS", 600_000, 1),
      killGraceMs: int(env, "SYNAPSE_KILL_GRACE_MS", 2000),
      outputMaxLines: int(env, "SYNAPSE_OUTPUT_MAX_LINES", 500, 1),
      outputMaxChars: int(env, "SYNAPSE_OUTPUT_MAX_CHARS", 30_000, 1),
    },
    store: {
      maxMessages: int(env, "SYNAPSE_STORE_MAX_MESSAGES", 400, 2),
      maxBytes: int(env, "SYNAPSE_STORE_MAX_BYTES", 8 * 1024 * 1024, 1024),
      flushMs: int(env, "SYNAPSE_STORE_FLUSH_MS", 200),
      rotateBytes: int(env, "SYNAPSE_ARCHIVE_ROTATE_BYTES", 64 * 1024 * 1024, 1024),
      contextMaxImages: int(env, "SYNAPSE_CONTEXT_MAX_IMAGES", 5),
      contextMaxImageBytes: int(env, "SYNAPSE_CONTEXT_MAX_IMAGE_BYTES", 10 * 1024 * 1024),
    },
    memory: {
      checkIntervalMs: int(env, "SYNAPSE_MEMORY_CHECK_INTERVAL_MS", 5000, 1),
      warnMb: int(env, "SYNAPSE_MEMORY_WARN_MB", 1024, 1),
      criticalMb: int(env, "SYNAPSE_MEMORY_CRITICAL_MB", 2048, 1),
    },
    toolResultSummaryLimit: int(env, "TOOL_RESULT_SUMMARY_LIMIT", 80, 10),
  };
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
