// The choices a run is made with: output format, permission mode, turn cap, price and budget. A
// repository's own config may only keep or tighten the permission mode the user chose.

import { UsageError } from "../protocol/errors.ts";
import {
  type ConfigFlags,
  type ConfigSources,
  type Env,
  type FileConfig,
  OUTPUT_FORMATS,
  type OutputFormat,
  PERMISSION_MODES,
  type PermissionMode,
  type PriceOverride,
} from "./config-types.ts";
import { dollars, int, oneOf, parsePrice } from "./env-values.ts";

export function resolveOutputFormat(flags: ConfigFlags): OutputFormat {
  return oneOf("--output-format", flags.outputFormat ?? "text", OUTPUT_FORMATS);
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
    `.synapse/config.json: "permissionMode": "${project}" is refused: a project's config may only make the mode ` +
      `stricter than "${floor}" (use --permission-mode or -y for this run, or set it in your user config)`,
  );
}

export function resolvePermissionMode(src: ConfigSources, file: FileConfig): PermissionMode {
  const { flags, env } = src;
  if (flags.permissionMode === undefined && !env.SYNAPSE_PERMISSION_MODE)
    checkProjectMode(src.projectFile?.permissionMode, src.userFile?.permissionMode);
  const raw = flags.permissionMode ?? env.SYNAPSE_PERMISSION_MODE ?? file.permissionMode ?? "default";
  // Name where a bad value came from (a config file's value was checked when it was read).
  const source = flags.permissionMode !== undefined ? "--permission-mode" : "SYNAPSE_PERMISSION_MODE";
  return oneOf(source, raw, PERMISSION_MODES);
}

/**
 * No cap unless asked for (as in Claude Code and Codex): real work takes many turns, and a cap
 * that stops it half-way costs more than it saves. Condensing keeps long runs within the window.
 */
export function resolveMaxTurns(flags: ConfigFlags, env: Env, file: FileConfig): number {
  let maxTurns = file.maxTurns ?? int(env, "SYNAPSE_MAX_TURNS", Number.POSITIVE_INFINITY, 1);
  if (env.SYNAPSE_MAX_TURNS) maxTurns = int(env, "SYNAPSE_MAX_TURNS", Number.POSITIVE_INFINITY, 1);
  if (flags.maxTurns !== undefined) {
    const n = Number(flags.maxTurns);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`--max-turns must be a whole number >= 1 (got "${flags.maxTurns}")`);
    maxTurns = n;
  }
  return maxTurns;
}

/**
 * A repository's own config may lower the user's turn cap and make loop detection stricter, never
 * the reverse: a prompt-injected model in a repository that lifted them could run on unchecked.
 * Not checked when a flag or variable sets the value (the file's is not used then).
 */
export function checkProjectLimits(src: ConfigSources): void {
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

/** Prices are the user's: a repository's own config could zero them and so lift the user's budget. */
export function checkProjectPrice(project: FileConfig | undefined): void {
  if (project?.price === undefined) return;
  throw new UsageError(
    '.synapse/config.json: "price" is refused: a project\'s config could make --max-budget-usd count a run as ' +
      "cheaper than it is (set SYNAPSE_PRICE, or price in your user config)",
  );
}

export function priceFrom(env: Env, file: FileConfig): PriceOverride | undefined {
  const raw = env.SYNAPSE_PRICE;
  if (raw === undefined || raw === "") return file.price;
  const price = parsePrice(raw);
  if (!price)
    throw new UsageError(
      `SYNAPSE_PRICE must be "input,output" or "input,output,cacheWrite,cacheRead" in dollars per million tokens ` +
        `(got "${raw}")`,
    );
  return price;
}

export function budgetFrom(flag: string | undefined, env: Env): number | undefined {
  const [name, raw] =
    flag !== undefined ? ["--max-budget-usd", flag] : ["SYNAPSE_MAX_BUDGET_USD", env.SYNAPSE_MAX_BUDGET_USD];
  // An empty variable is unset; an empty flag (`--max-budget-usd "$BUDGET"`, unset) must not run unbounded.
  if (raw === undefined || (raw === "" && flag === undefined)) return undefined;
  const n = dollars(raw.trim());
  if (!(n > 0)) throw new UsageError(`${name} must be a number of dollars above 0 (got "${raw}")`);
  return n;
}
