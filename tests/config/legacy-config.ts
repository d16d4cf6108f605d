// The resolver of src/config/config.ts before it was split into modules (config-types, env-values,
// run-settings, terminal-settings, sandbox-config, subsystem-config), kept only as the reference of
// tests/config/config-differential.test.ts.

import { resolve as resolvePath } from "node:path";
import { UsageError } from "../../src/protocol/errors.ts";
import {
  commandEnvironment,
  hiddenEnvNames,
  hiddenNamesPresent,
  withoutShellHooks,
} from "../../src/config/command-env.ts";
import type {
  Config,
  ConfigSources,
  FileConfig,
  NotifyKind,
  OutputFormat,
  PermissionMode,
  PriceOverride,
  SandboxConfig,
  SandboxMode,
  ThemeName,
} from "../../src/config/config-types.ts";

const DOLLARS = /^\d+(\.\d+)?$/;

/** SYNAPSE_PRICE: "input,output[,cacheWrite,cacheRead]" in dollars per million tokens. */
function parsePrice(text: string): PriceOverride | undefined {
  const parts = text.split(",").map((s) => s.trim());
  if (parts.length !== 2 && parts.length !== 4) return undefined;
  const n = parts.map((s) => (DOLLARS.test(s) ? Number(s) : Number.NaN));
  if (n.some((x) => !Number.isFinite(x))) return undefined;
  return { input: n[0]!, output: n[1]!, ...(n.length === 4 ? { cacheWrite: n[2]!, cacheRead: n[3]! } : {}) };
}

function priceFrom(env: ConfigSources["env"], file: FileConfig): PriceOverride | undefined {
  const raw = env.SYNAPSE_PRICE;
  if (raw === undefined || raw === "") return file.price;
  const price = parsePrice(raw);
  if (!price)
    throw new UsageError(
      `SYNAPSE_PRICE must be "input,output" or "input,output,cacheWrite,cacheRead" in dollars per million tokens (got "${raw}")`,
    );
  return price;
}

function budgetFrom(flag: string | undefined, env: ConfigSources["env"]): number | undefined {
  const [name, raw] =
    flag !== undefined ? ["--max-budget-usd", flag] : ["SYNAPSE_MAX_BUDGET_USD", env.SYNAPSE_MAX_BUDGET_USD];
  // An empty variable is unset; an empty flag (`--max-budget-usd "$BUDGET"`, unset) must not run unbounded.
  if (raw === undefined || (raw === "" && flag === undefined)) return undefined;
  const n = DOLLARS.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(n > 0)) throw new UsageError(`${name} must be a number of dollars above 0 (got "${raw}")`);
  return n;
}

const OUTPUT_FORMATS: OutputFormat[] = ["text", "json", "stream-json"];
const PERMISSION_MODES: PermissionMode[] = ["default", "accept-edits", "bypass", "plan"];
const SANDBOX_MODES: SandboxMode[] = ["read-only", "workspace-write", "full-access"];

function int(
  env: ConfigSources["env"],
  name: string,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  // Digits only: Number() would also take "1e9", "0x10" and " 7 ".
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${name} must be a whole number ${range} (got "${raw}")`);
  }
  return n;
}

/** Above every model's output limit (Claude's and GPT's are 128k tokens or less): a larger value is a typo. */
const MAX_OUTPUT_TOKENS = 1_000_000;

function percent(env: ConfigSources["env"], name: string, fallback: number): number {
  const n = int(env, name, fallback, 1);
  if (n > 100) throw new UsageError(`${name} must be a percentage from 1 to 100 (got "${env[name]}")`);
  return n;
}

function bool(env: ConfigSources["env"], name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "on", "yes"].includes(raw)) return true;
  if (["0", "false", "off", "no"].includes(raw)) return false;
  throw new UsageError(`${name} must be 1 or 0 (got "${env[name]}")`);
}

const STRICTNESS: PermissionMode[] = ["bypass", "default", "accept-edits", "plan"];

/**
 * A repository's own config (or a model that wrote it in an earlier run) must not loosen the
 * checks that protect the user from it: it may only keep or tighten the user's mode.
 */
function checkProjectMode(project: PermissionMode | undefined, user: PermissionMode | undefined): void {
  if (project === undefined) return;
  const floor = user ?? "default";
  if (STRICTNESS.indexOf(project) >= STRICTNESS.indexOf(floor)) return;
  throw new UsageError(
    `.synapse/config.json: "permissionMode": "${project}" is refused: a project's config may only make the mode stricter than "${floor}" ` +
      `(use --permission-mode or -y for this run, or set it in your user config)`,
  );
}

/** A repository's config may confine commands more, never less (like its permission mode). */
function checkProjectSandbox(project: FileConfig["sandbox"]): void {
  if (project?.mode === "full-access") {
    throw new UsageError(
      `.synapse/config.json: "sandbox.mode": "full-access" is refused: ` +
        "a project's config may only tighten the sandbox " +
        `(use --sandbox full-access for this run, or set it in your user config)`,
    );
  }
  if (project?.network === true) {
    throw new UsageError(
      `.synapse/config.json: "sandbox.network": true is refused: a project's config may only tighten the sandbox ` +
        `(use --sandbox-network for this run, or set it in your user config)`,
    );
  }
}

/** Added after the split (README claims pass): a project's config may only lower the limits. */
function checkProjectLimits(src: ConfigSources): void {
  const { flags, env } = src;
  const project = src.projectFile;
  const cap = src.userFile?.maxTurns ?? Number.POSITIVE_INFINITY;
  const turns = flags.maxTurns === undefined && !env.SYNAPSE_MAX_TURNS ? project?.maxTurns : undefined;
  if (turns !== undefined && turns > cap)
    throw refusedLimit("maxTurns", turns, `lower the cap of ${cap} turns`, "--max-turns");
  // Fewer identical calls in a row is stricter; 0 turns loop detection off.
  const limit = src.userFile?.loopLimit ?? 5;
  const loop = env.SYNAPSE_LOOP_LIMIT ? undefined : project?.loopLimit;
  if (loop !== undefined && limit !== 0 && (loop === 0 || loop > limit))
    throw refusedLimit(
      "loopLimit",
      loop,
      `make loop detection stricter than ${limit} (0 turns it off)`,
      "SYNAPSE_LOOP_LIMIT",
    );
}
function refusedLimit(key: string, value: number, may: string, instead: string): UsageError {
  return new UsageError(
    `.synapse/config.json: "${key}": ${value} is refused: a project's config may only ${may} ` +
      `(use ${instead} for this run, or set it in your user config)`,
  );
}

/** Added after the split (README claims pass): a project's config names no servers; an empty --mcp-config. */
function checkMcpSources(src: ConfigSources): void {
  if (src.projectFile?.mcpServers !== undefined)
    throw new UsageError(
      '.synapse/config.json: "mcpServers" is refused: a project names its MCP servers in .mcp.json ' +
        "(each started only once you approve it), your own go in your user config",
    );
  if (src.flags.mcpConfig?.some((v) => v.trim() === ""))
    throw new UsageError('--mcp-config needs a file or inline JSON ({"mcpServers": {...}})');
}

const NOTIFY_KINDS: readonly NotifyKind[] = ["bell", "osc9", "osc777", "off"];

function notifyKind(raw: string | undefined): NotifyKind {
  if (!raw) return "bell";
  if (!NOTIFY_KINDS.includes(raw as NotifyKind)) {
    throw new UsageError(`SYNAPSE_NOTIFY must be one of ${NOTIFY_KINDS.join(", ")} (got "${raw}")`);
  }
  return raw as NotifyKind;
}

const THEME_NAMES: readonly ThemeName[] = ["dark", "light", "colour-blind"];

/** The theme a terminal's COLORFGBG ("fg;bg", bg 7 or 15 a light one) suggests; dark when unknown. */
function themeFromColorFgBg(value: string | undefined): ThemeName {
  const bg = Number(value?.split(";").at(-1));
  return bg === 7 || bg === 15 ? "light" : "dark";
}

function themeName(raw: string | undefined, colorFgBg: string | undefined): ThemeName {
  if (!raw) return themeFromColorFgBg(colorFgBg);
  if (!THEME_NAMES.includes(raw as ThemeName)) {
    throw new UsageError(`SYNAPSE_THEME must be one of ${THEME_NAMES.join(", ")} (got "${raw}")`);
  }
  return raw as ThemeName;
}

function resolveSandbox(src: ConfigSources): SandboxConfig {
  const { flags, env } = src;
  checkProjectSandbox(src.projectFile?.sandbox);
  const fromFiles = src.projectFile?.sandbox?.mode ?? src.userFile?.sandbox?.mode;
  const raw = flags.sandbox ?? (env.SYNAPSE_SANDBOX || undefined) ?? fromFiles;
  const mode = (raw ?? "workspace-write") as SandboxMode;
  if (!SANDBOX_MODES.includes(mode)) {
    const source = flags.sandbox !== undefined ? "--sandbox" : "SYNAPSE_SANDBOX";
    throw new UsageError(`${source} must be one of ${SANDBOX_MODES.join(", ")} (got "${raw}")`);
  }
  // The project file cannot turn the network on (checked above), but it can turn the user's off.
  const fileNetwork = src.projectFile?.sandbox?.network ?? src.userFile?.sandbox?.network ?? false;
  const network = flags.sandboxNetwork === true || bool(env, "SYNAPSE_SANDBOX_NETWORK", fileNetwork);
  return { mode, network, bwrapPath: env.SYNAPSE_BWRAP || undefined };
}

export function resolveConfig(src: ConfigSources): Config {
  const { flags, env } = src;
  const file: FileConfig = { ...src.userFile, ...src.projectFile };

  const outputFormat = (flags.outputFormat ?? "text") as OutputFormat;
  if (!OUTPUT_FORMATS.includes(outputFormat)) {
    throw new UsageError(`--output-format must be one of ${OUTPUT_FORMATS.join(", ")} (got "${flags.outputFormat}")`);
  }
  if (flags.permissionMode === undefined && !env.SYNAPSE_PERMISSION_MODE)
    checkProjectMode(src.projectFile?.permissionMode, src.userFile?.permissionMode);
  const permissionMode = (flags.permissionMode ??
    env.SYNAPSE_PERMISSION_MODE ??
    file.permissionMode ??
    "default") as PermissionMode;
  if (!PERMISSION_MODES.includes(permissionMode)) {
    // Name where the bad value came from (a config file's value was checked when it was read).
    const source = flags.permissionMode !== undefined ? "--permission-mode" : "SYNAPSE_PERMISSION_MODE";
    throw new UsageError(`${source} must be one of ${PERMISSION_MODES.join(", ")} (got "${permissionMode}")`);
  }
  // No cap unless asked for (as in Claude Code and Codex): real work takes many turns, and a cap
  // that stops it half-way costs more than it saves. Condensing keeps long runs within the window.
  let maxTurns = file.maxTurns ?? int(env, "SYNAPSE_MAX_TURNS", Number.POSITIVE_INFINITY, 1);
  if (env.SYNAPSE_MAX_TURNS) maxTurns = int(env, "SYNAPSE_MAX_TURNS", Number.POSITIVE_INFINITY, 1);
  if (flags.maxTurns !== undefined) {
    const n = Number(flags.maxTurns);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`--max-turns must be a whole number >= 1 (got "${flags.maxTurns}")`);
    maxTurns = n;
  }

  const processCwd = src.processCwd;
  const cwd = flags.cwd ? resolvePath(processCwd, flags.cwd) : processCwd;
  const dataHome = env.XDG_DATA_HOME || `${src.homeDir}/.local/share`;
  const home = env.SYNAPSE_HOME ? resolvePath(processCwd, env.SYNAPSE_HOME) : `${dataHome}/synapse`;
  const cacheDir = `${env.XDG_CACHE_HOME ? resolvePath(processCwd, env.XDG_CACHE_HOME) : `${src.homeDir}/.cache`}/synapse`;
  const hiddenEnv = hiddenEnvNames(env.SYNAPSE_HIDE_ENV);
  const shellEnv = commandEnvironment(env, hiddenEnv);
  const noColor = flags.noColor || (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || env.TERM === "dumb";

  const config: Config = {
    cwd,
    home,
    configDir: `${env.XDG_CONFIG_HOME || `${src.homeDir}/.config`}/synapse`,
    cacheDir,
    model: flags.model ?? env.SYNAPSE_MODEL ?? file.model,
    modelFromFlag: flags.model !== undefined,
    outputFormat,
    maxTurns,
    maxTokens: int(env, "SYNAPSE_MAX_TOKENS", file.maxTokens ?? 8192, 1, MAX_OUTPUT_TOKENS),
    quiet: flags.quiet ?? false,
    color: !noColor,
    dumbTerminal: env.TERM === "dumb",
    notify: { kind: notifyKind(env.SYNAPSE_NOTIFY), afterSeconds: int(env, "SYNAPSE_NOTIFY_AFTER", 30, 0, 86_400) },
    theme: themeName(env.SYNAPSE_THEME, env.COLORFGBG),
    permissionMode,
    permissions: {
      allow: [...(flags.allow ?? []), ...(src.userFile?.permissions?.allow ?? [])],
      projectAllow: [...(src.projectFile?.permissions?.allow ?? [])],
      deny: [
        ...(flags.deny ?? []),
        ...(src.projectFile?.permissions?.deny ?? []),
        ...(src.userFile?.permissions?.deny ?? []),
      ],
    },
    addDirs: (flags.addDir ?? []).map((d) => resolvePath(cwd, d)),
    sandbox: resolveSandbox(src),
    secrets: Object.entries(env)
      .filter(([name, value]) => value && hiddenEnv.length && !(name in shellEnv))
      .map(([, value]) => value!),
    maxRetries: int(env, "SYNAPSE_MAX_RETRIES", file.maxRetries ?? 4),
    loopLimit: int(env, "SYNAPSE_LOOP_LIMIT", file.loopLimit ?? 5),
    retryBaseMs: int(env, "SYNAPSE_RETRY_BASE_MS", 1000),
    retryMaxMs: int(env, "SYNAPSE_RETRY_MAX_MS", 60_000),
    streamIdleMs: int(env, "SYNAPSE_STREAM_IDLE_MS", 300_000, 1),
    stdinWaitMs: int(env, "SYNAPSE_STDIN_WAIT_MS", 3000),
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
      env: withoutShellHooks(shellEnv),
      hiddenEnv,
      hiddenSet: hiddenNamesPresent(env, hiddenEnv),
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
    context: {
      window: env.SYNAPSE_CONTEXT_WINDOW ? int(env, "SYNAPSE_CONTEXT_WINDOW", 0, 1000) : undefined,
      thresholdPercent: percent(env, "SYNAPSE_CONDENSE_THRESHOLD", 80),
      keepLastTurns: int(env, "SYNAPSE_COMPACT_KEEP_LAST", 2),
      autoCondense: bool(env, "SYNAPSE_AUTO_CONDENSE", file.autoCondense ?? true),
    },
    toolResultSummaryLimit: int(env, "TOOL_RESULT_SUMMARY_LIMIT", 80, 10),
    tasks: {
      maxParallel: int(env, "SYNAPSE_MAX_PARALLEL_TASKS", 5, 1),
      timeoutMs: int(env, "SYNAPSE_TASK_TIMEOUT_MS", 600_000, 1),
      maxHeapMb: int(env, "SYNAPSE_TASK_MAX_HEAP_MB", 1024, 16),
    },
    mcp:
      (checkMcpSources(src),
      {
        userServers: { ...src.userFile?.mcpServers },
        // A file is relative to where synapse was started (as a shell user expects), not to -C.
        configs: (flags.mcpConfig ?? []).map((v) => (v.trim().startsWith("{") ? v : resolvePath(processCwd, v))),
        strict: flags.strictMcpConfig ?? false,
        allowProject: flags.allowProjectMcp ?? false,
        startTimeoutMs: int(env, "SYNAPSE_MCP_TIMEOUT_MS", 30_000, 1),
        toolTimeoutMs: int(env, "SYNAPSE_MCP_TOOL_TIMEOUT_MS", 600_000, 1),
        maxOutputTokens: int(env, "SYNAPSE_MAX_MCP_OUTPUT_TOKENS", 25_000, 100),
      }),
    hooks: {
      user: { ...src.userFile?.hooks },
      project: { ...src.projectFile?.hooks },
      projectOrigin: `${cwd}/.synapse/config.json`,
      allowProject: flags.allowProjectHooks ?? false,
    },
  };
  if (src.projectFile?.price !== undefined)
    throw new UsageError(
      '.synapse/config.json: "price" is refused: a project\'s config could make --max-budget-usd count a run as ' +
        "cheaper than it is (set SYNAPSE_PRICE, or price in your user config)",
    );
  checkProjectLimits(src);
  const price = priceFrom(env, file);
  if (price) config.price = price;
  const budget = budgetFrom(flags.maxBudgetUsd, env);
  if (budget !== undefined) config.maxBudgetUsd = budget;
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
