// One config object: flags > environment > project config > user config > defaults, resolved once
// into a frozen value. Nothing else in the program reads process.env. The types are in
// config-types.ts, the strict parsers of environment values in env-values.ts, and each group of
// settings in its own module (run-settings, terminal-settings, sandbox-config, subsystem-config).

import { resolve as resolvePath } from "node:path";
import { commandEnvironment, hiddenEnvNames } from "./command-env.ts";
import {
  type Config,
  type ConfigSources,
  type Env,
  type FileConfig,
  MAX_OUTPUT_TOKENS,
  type RuleOrigin,
} from "./config-types.ts";
import { int } from "./env-values.ts";
import { outputSchemaSource } from "./output-schema-source.ts";
import {
  budgetFrom,
  checkProjectLimits,
  checkProjectPrice,
  priceFrom,
  resolveMaxTurns,
  resolveOutputFormat,
  resolvePermissionMode,
} from "./run-settings.ts";
import { resolveSandbox } from "./sandbox-config.ts";
import {
  contextConfig,
  hooksConfig,
  mcpConfig,
  memoryConfig,
  shellConfig,
  storeConfig,
  taskConfig,
} from "./subsystem-config.ts";
import { terminalSettings } from "./terminal-settings.ts";

export type * from "./config-types.ts";
export {
  MAX_OUTPUT_TOKENS,
  NOTIFY_KINDS,
  OUTPUT_FORMATS,
  PERMISSION_MODES,
  SANDBOX_MODES,
  THEME_NAMES,
} from "./config-types.ts";
export { parsePrice } from "./env-values.ts";
export { themeFromColorFgBg } from "./terminal-settings.ts";

/** Where synapse keeps its things: sessions (SYNAPSE_HOME), its config folder, its cache. */
function locations(src: ConfigSources, env: Env): Pick<Config, "cwd" | "home" | "configDir" | "cacheDir"> {
  const { processCwd, homeDir } = src;
  const dataHome = env.XDG_DATA_HOME || `${homeDir}/.local/share`;
  const cacheHome = env.XDG_CACHE_HOME ? resolvePath(processCwd, env.XDG_CACHE_HOME) : `${homeDir}/.cache`;
  return {
    cwd: src.flags.cwd ? resolvePath(processCwd, src.flags.cwd) : processCwd,
    home: env.SYNAPSE_HOME ? resolvePath(processCwd, env.SYNAPSE_HOME) : `${dataHome}/synapse`,
    configDir: `${env.XDG_CONFIG_HOME || `${homeDir}/.config`}/synapse`,
    cacheDir: `${cacheHome}/synapse`,
  };
}

/** Each config file's rules with the file they are in: the policy checks them, and names the file of a bad one. */
function ruleOrigins(src: ConfigSources): { origins?: RuleOrigin[] } {
  const origins: RuleOrigin[] = [];
  for (const [file, path] of [
    [src.projectFile, src.projectFilePath],
    [src.userFile, src.userFilePath],
  ] as const) {
    if (!file?.permissions || path === undefined) continue;
    for (const rule of file.permissions.allow ?? []) origins.push({ rule, file: path, key: "permissions.allow" });
    for (const rule of file.permissions.deny ?? []) origins.push({ rule, file: path, key: "permissions.deny" });
  }
  return origins.length ? { origins } : {};
}

/** Values of the hidden variables (kept out of commands' environment): redacted wherever shown. */
function secretValues(env: Env, hiddenEnv: readonly string[], shellEnv: Record<string, string>): string[] {
  if (!hiddenEnv.length) return [];
  return Object.entries(env).flatMap(([name, value]) => (value && !(name in shellEnv) ? [value] : []));
}

export function resolveConfig(src: ConfigSources): Config {
  const { flags, env } = src;
  const file: FileConfig = { ...src.userFile, ...src.projectFile };
  const outputFormat = resolveOutputFormat(flags);
  const permissionMode = resolvePermissionMode(src, file);
  const maxTurns = resolveMaxTurns(flags, env, file);
  const where = locations(src, env);
  const hiddenEnv = hiddenEnvNames(env.SYNAPSE_HIDE_ENV);
  const shellEnv = commandEnvironment(env, hiddenEnv);

  const config: Config = {
    ...where,
    model: flags.model ?? env.SYNAPSE_MODEL ?? file.model,
    modelFromFlag: flags.model !== undefined,
    outputFormat,
    maxTurns,
    maxTokens: int(env, "SYNAPSE_MAX_TOKENS", file.maxTokens ?? 8192, 1, MAX_OUTPUT_TOKENS),
    quiet: flags.quiet ?? false,
    ...terminalSettings(flags, env),
    permissionMode,
    permissions: {
      allow: [...(flags.allow ?? []), ...(src.userFile?.permissions?.allow ?? [])],
      projectAllow: [...(src.projectFile?.permissions?.allow ?? [])],
      deny: [
        ...(flags.deny ?? []),
        ...(src.projectFile?.permissions?.deny ?? []),
        ...(src.userFile?.permissions?.deny ?? []),
      ],
      ...ruleOrigins(src),
    },
    addDirs: (flags.addDir ?? []).map((d) => resolvePath(where.cwd, d)),
    sandbox: resolveSandbox(src),
    secrets: secretValues(env, hiddenEnv, shellEnv),
    maxRetries: int(env, "SYNAPSE_MAX_RETRIES", file.maxRetries ?? 4),
    loopLimit: int(env, "SYNAPSE_LOOP_LIMIT", file.loopLimit ?? 5),
    retryBaseMs: int(env, "SYNAPSE_RETRY_BASE_MS", 1000),
    retryMaxMs: int(env, "SYNAPSE_RETRY_MAX_MS", 60_000),
    streamIdleMs: int(env, "SYNAPSE_STREAM_IDLE_MS", 300_000, 1),
    stdinWaitMs: int(env, "SYNAPSE_STDIN_WAIT_MS", 3000),
    anthropic: { apiKey: env.ANTHROPIC_API_KEY || undefined, baseUrl: env.ANTHROPIC_BASE_URL || undefined },
    openai: { apiKey: env.OPENAI_API_KEY || undefined, baseUrl: env.OPENAI_BASE_URL || undefined },
    shell: shellConfig(env, shellEnv, hiddenEnv),
    store: storeConfig(env),
    memory: memoryConfig(env),
    context: contextConfig(env, file),
    toolResultSummaryLimit: int(env, "TOOL_RESULT_SUMMARY_LIMIT", 80, 10),
    tasks: taskConfig(env),
    mcp: mcpConfig(src),
    hooks: hooksConfig(src, where.cwd),
  };
  if (flags.tools) config.tools = flags.tools;
  checkProjectPrice(src.projectFile);
  checkProjectLimits(src);
  const price = priceFrom(env, file);
  if (price) config.price = price;
  const budget = budgetFrom(flags.maxBudgetUsd, env);
  if (budget !== undefined) config.maxBudgetUsd = budget;
  const outputSchema = outputSchemaSource(flags, src.processCwd);
  if (outputSchema) config.outputSchema = outputSchema;
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
