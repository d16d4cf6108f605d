// The settings of each subsystem, each from its environment variables (and config keys where a
// file may set them): shell pool, session store, memory monitor, context, sub-agents, MCP, hooks.

import { resolve as resolvePath } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import type { HooksConfig } from "../protocol/hook-events.ts";
import { hiddenNamesPresent, withoutShellHooks } from "./command-env.ts";
import type {
  ConfigSources,
  ContextConfig,
  Env,
  FileConfig,
  McpConfig,
  MemoryConfig,
  ShellConfig,
  StoreConfig,
  TaskConfig,
} from "./config-types.ts";
import { bool, int, percent } from "./env-values.ts";

/** `shellEnv`: the environment commands get (command-env.ts), `hiddenEnv` the names kept out of it. */
export function shellConfig(env: Env, shellEnv: Record<string, string>, hiddenEnv: readonly string[]): ShellConfig {
  return {
    poolMax: int(env, "SYNAPSE_SHELL_POOL_MAX", 8, 1),
    idleMax: int(env, "SYNAPSE_SHELL_IDLE_MAX", 2),
    idleMs: int(env, "SYNAPSE_SHELL_IDLE_MS", 60_000),
    maxCd: int(env, "SYNAPSE_SHELL_MAX_CD", 5),
    commandTimeoutMs: int(env, "SYNAPSE_COMMAND_TIMEOUT_MS", 120_000, 1),
    maxCommandTimeoutMs: int(env, "SYNAPSE_COMMAND_MAX_TIMEOUT_MS", 600_000, 1),
    killGraceMs: int(env, "SYNAPSE_KILL_GRACE_MS", 2000),
    outputMaxLines: int(env, "SYNAPSE_OUTPUT_MAX_LINES", 500, 1),
    outputMaxChars: int(env, "SYNAPSE_OUTPUT_MAX_CHARS", 30_000, 1),
    env: withoutShellHooks(shellEnv),
    hiddenEnv,
    hiddenSet: hiddenNamesPresent(env, hiddenEnv),
  };
}

export function storeConfig(env: Env): StoreConfig {
  return {
    maxMessages: int(env, "SYNAPSE_STORE_MAX_MESSAGES", 400, 2),
    maxBytes: int(env, "SYNAPSE_STORE_MAX_BYTES", 8 * 1024 * 1024, 1024),
    flushMs: int(env, "SYNAPSE_STORE_FLUSH_MS", 200),
    rotateBytes: int(env, "SYNAPSE_ARCHIVE_ROTATE_BYTES", 64 * 1024 * 1024, 1024),
    contextMaxImages: int(env, "SYNAPSE_CONTEXT_MAX_IMAGES", 5),
    contextMaxImageBytes: int(env, "SYNAPSE_CONTEXT_MAX_IMAGE_BYTES", 10 * 1024 * 1024),
  };
}

export function memoryConfig(env: Env): MemoryConfig {
  return {
    checkIntervalMs: int(env, "SYNAPSE_MEMORY_CHECK_INTERVAL_MS", 5000, 1),
    warnMb: int(env, "SYNAPSE_MEMORY_WARN_MB", 1024, 1),
    criticalMb: int(env, "SYNAPSE_MEMORY_CRITICAL_MB", 2048, 1),
  };
}

export function contextConfig(env: Env, file: FileConfig): ContextConfig {
  return {
    window: env.SYNAPSE_CONTEXT_WINDOW ? int(env, "SYNAPSE_CONTEXT_WINDOW", 0, 1000) : undefined,
    thresholdPercent: percent(env, "SYNAPSE_CONDENSE_THRESHOLD", 80),
    keepLastTurns: int(env, "SYNAPSE_COMPACT_KEEP_LAST", 2),
    autoCondense: bool(env, "SYNAPSE_AUTO_CONDENSE", file.autoCondense ?? true),
  };
}

export function taskConfig(env: Env): TaskConfig {
  return {
    maxParallel: int(env, "SYNAPSE_MAX_PARALLEL_TASKS", 5, 1),
    timeoutMs: int(env, "SYNAPSE_TASK_TIMEOUT_MS", 600_000, 1),
    maxHeapMb: int(env, "SYNAPSE_TASK_MAX_HEAP_MB", 1024, 16),
  };
}

export function mcpConfig(src: ConfigSources): McpConfig {
  const { flags, env } = src;
  // Ignoring them would leave a user wondering why their servers never start; starting them would let
  // a repository run commands by itself.
  if (src.projectFile?.mcpServers !== undefined)
    throw new UsageError(
      '.synapse/config.json: "mcpServers" is refused: a project names its MCP servers in .mcp.json ' +
        "(each started only once you approve it), your own go in your user config",
    );
  // An empty value would name the current folder once resolved.
  if (flags.mcpConfig?.some((v) => v.trim() === ""))
    throw new UsageError('--mcp-config needs a file or inline JSON ({"mcpServers": {...}})');
  return {
    userServers: { ...src.userFile?.mcpServers },
    // A file is relative to where synapse was started (as a shell user expects), not to -C.
    configs: (flags.mcpConfig ?? []).map((v) => (v.trim().startsWith("{") ? v : resolvePath(src.processCwd, v))),
    strict: flags.strictMcpConfig ?? false,
    allowProject: flags.allowProjectMcp ?? false,
    startTimeoutMs: int(env, "SYNAPSE_MCP_TIMEOUT_MS", 30_000, 1),
    toolTimeoutMs: int(env, "SYNAPSE_MCP_TOOL_TIMEOUT_MS", 600_000, 1),
    maxOutputTokens: int(env, "SYNAPSE_MAX_MCP_OUTPUT_TOKENS", 25_000, 100),
  };
}

/** The user's hooks, and the project's apart: they run only once approved (src/hooks). */
export function hooksConfig(src: ConfigSources, cwd: string): HooksConfig {
  return {
    user: { ...src.userFile?.hooks },
    project: { ...src.projectFile?.hooks },
    projectOrigin: `${cwd}/.synapse/config.json`,
    allowProject: src.flags.allowProjectHooks ?? false,
  };
}
