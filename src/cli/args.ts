// Command-line parsing (node:util parseArgs: the design card's @std/cli is published only on JSR,
// unreachable here, and parseArgs is its stand-in).

import type { ConfigFlags } from "../config/config.ts";
import { UsageError } from "../protocol/errors.ts";
import { argumentError } from "./arg-errors.ts";
import type * as NodeUtil from "node:util";
import { SDK_OPTIONS, type SdkFlags, sdkFlags } from "./sdk-flags.ts";

export type Command =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "sessions"; all: boolean }
  | { kind: "doctor" }
  /** An Agent Client Protocol agent on stdin/stdout, for editors (src/acp/). */
  | { kind: "acp" }
  | ({ kind: "compact" } & CompactSelection)
  /** `synapse mcp …`: its words after `mcp`, parsed by cli/mcp-command.ts. */
  | { kind: "mcp"; args: string[] }
  | {
      kind: "run";
      prompt: string | undefined;
      resume?: { id: string } | { latest: true };
      images: string[];
      /** The Claude Agent SDK's flags (cli/sdk-flags.ts); `inputFormat: "stream-json"` runs src/agent-sdk/. */
      sdk?: SdkFlags;
    };

/** `synapse compact`: which sessions, and what to do with them. */
export interface CompactSelection {
  session?: string;
  all: boolean;
  olderThanDays?: number;
  dryRun: boolean;
}

export interface ParsedArgs {
  command: Command;
  flags: ConfigFlags;
}

const SUBCOMMANDS = new Set(["sessions", "doctor", "compact", "acp"]);
const COMPACT_FLAGS = ["session", "all", "older-than", "dry-run"] as const;

export const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  model: { type: "string", short: "m" },
  "output-format": { type: "string", short: "o" },
  continue: { type: "boolean", short: "c" },
  resume: { type: "string", short: "r" },
  cwd: { type: "string", short: "C" },
  "max-turns": { type: "string" },
  "permission-mode": { type: "string" },
  allow: { type: "string", multiple: true },
  deny: { type: "string", multiple: true },
  "add-dir": { type: "string", multiple: true },
  sandbox: { type: "string" },
  "sandbox-network": { type: "boolean" },
  "max-budget-usd": { type: "string" },
  "json-schema": { type: "string" },
  "output-schema": { type: "string" },
  "mcp-config": { type: "string", multiple: true },
  "strict-mcp-config": { type: "boolean" },
  "allow-project-mcp": { type: "boolean" },
  "allow-project-hooks": { type: "boolean" },
  yes: { type: "boolean", short: "y" },
  quiet: { type: "boolean", short: "q" },
  "no-color": { type: "boolean" },
  image: { type: "string", multiple: true },
  "list-sessions": { type: "boolean" },
  session: { type: "string" },
  all: { type: "boolean" },
  "older-than": { type: "string" },
  "dry-run": { type: "boolean" },
  ...SDK_OPTIONS,
} as const;

type ParsedWords = ReturnType<
  typeof NodeUtil.parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>
>;

/**
 * parseArgs's answer. A command line with no option in it (no word starts with "-", the piped
 * `synapse "review this"`) is all positionals, which is what parseArgs would answer: node:util, ~5 ms
 * of a compiled binary's start, loads only for a command line that has options to parse.
 */
export function parseWords(argv: readonly string[]): ParsedWords {
  if (!argv.some((word) => word.startsWith("-"))) return { values: {}, positionals: [...argv] };
  const { parseArgs } = process.getBuiltinModule("node:util") as typeof NodeUtil;
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(argumentError(err, [...argv]));
  }
}

export function parseCommandLine(argv: string[]): ParsedArgs {
  // `synapse [-C dir] mcp add NAME -e K=V -- cmd …` has a grammar of its own (Claude Code's).
  if (argv[0] === "mcp") return { command: { kind: "mcp", args: argv.slice(1) }, flags: {} };
  if ((argv[0] === "-C" || argv[0] === "--cwd") && argv[2] === "mcp") {
    return { command: { kind: "mcp", args: argv.slice(3) }, flags: { cwd: argv[1] } };
  }
  const { values: v, positionals } = parseWords(argv);

  if (v.yes && v["permission-mode"] && v["permission-mode"] !== "bypass") {
    throw new UsageError(`-y conflicts with --permission-mode ${v["permission-mode"]}`);
  }
  if (v.continue && v.resume !== undefined) throw new UsageError("--continue and --resume cannot be used together");
  // `synapse -r "$SID"` with an empty variable must not quietly start a new session.
  if (v.resume !== undefined && !v.resume.trim())
    throw new UsageError("--resume needs a session id (see synapse sessions)");
  // Likewise `-m "$MODEL"` or `-C "$DIR"`: not the default model, not the current folder.
  if (v.model !== undefined && !v.model.trim()) throw new UsageError("--model needs a model name (/model lists them)");
  if (v.cwd !== undefined && !v.cwd.trim()) throw new UsageError("--cwd needs a folder");

  // The SDK's flags: Claude Code's permission mode names, --allowedTools/--disallowedTools as rules.
  const sdk = sdkFlags(v);
  const flags: ConfigFlags = {
    cwd: v.cwd,
    model: v.model,
    outputFormat: v["output-format"],
    maxTurns: v["max-turns"],
    quiet: v.quiet,
    noColor: v["no-color"],
    permissionMode: v.yes ? "bypass" : sdk.config.permissionMode,
    allow: sdk.config.allow.length ? [...(v.allow ?? []), ...sdk.config.allow] : v.allow,
    deny: sdk.config.deny.length ? [...(v.deny ?? []), ...sdk.config.deny] : v.deny,
    ...(sdk.config.tools ? { tools: sdk.config.tools } : {}),
    addDir: v["add-dir"],
    sandbox: v.sandbox,
    sandboxNetwork: v["sandbox-network"],
    maxBudgetUsd: v["max-budget-usd"],
    jsonSchema: v["json-schema"],
    outputSchema: v["output-schema"],
    mcpConfig: v["mcp-config"],
    strictMcpConfig: v["strict-mcp-config"],
    allowProjectMcp: v["allow-project-mcp"],
    allowProjectHooks: v["allow-project-hooks"],
  };

  if (v.help) return { command: { kind: "help" }, flags };
  if (v.version) return { command: { kind: "version" }, flags };
  if (v["list-sessions"]) return { command: { kind: "sessions", all: Boolean(v.all) }, flags };

  // A subcommand is only recognised as the sole first word before any `--`.
  const dashDash = argv.indexOf("--");
  const first = positionals[0];
  const firstIsBeforeDashDash = dashDash === -1 || (first !== undefined && argv.indexOf(first) < dashDash);
  const isSubcommand = first !== undefined && SUBCOMMANDS.has(first) && firstIsBeforeDashDash;
  if (!(isSubcommand && first === "compact")) {
    // `--all` is also an option of `synapse sessions`.
    const misplaced = COMPACT_FLAGS.find(
      (f) => v[f] !== undefined && !(isSubcommand && first === "sessions" && f === "all"),
    );
    if (misplaced)
      throw new UsageError(
        `--${misplaced} is an option of synapse ${misplaced === "all" ? "sessions and synapse compact" : "compact"}`,
      );
  }
  if (first && isSubcommand) {
    if (positionals.length > 1) throw new UsageError(`${first} takes no arguments`);
    // Ignored, they would leave a user believing `synapse compact -c` handled only the latest session.
    const runOnly = ["json-schema", "output-schema", "continue", "resume", "image"] as const;
    const runFlag = runOnly.find((f) => v[f] !== undefined);
    if (runFlag) throw new UsageError(`--${runFlag} is an option of a run with a prompt, not of synapse ${first}`);
    if (first === "compact") return { command: { kind: "compact", ...compactSelection(v) }, flags };
    if (first === "sessions") return { command: { kind: "sessions", all: Boolean(v.all) }, flags };
    if (first === "acp") return { command: { kind: "acp" }, flags };
    return { command: { kind: "doctor" }, flags };
  }

  const prompt = positionals.length ? positionals.join(" ") : undefined;
  const resume = v.resume !== undefined ? { id: v.resume.trim() } : v.continue ? { latest: true as const } : undefined;
  // Only when the SDK's flags were used (or --permission-mode dontAsk/auto): other runs carry none.
  const sdkGiven =
    sdk.sdk.dontAsk ||
    sdk.sdk.notes.length > 0 ||
    Object.keys(SDK_OPTIONS).some((name) => v[name as keyof typeof v] !== undefined);
  return {
    command: { kind: "run", prompt, resume, images: v.image ?? [], ...(sdkGiven ? { sdk: sdk.sdk } : {}) },
    flags,
  };
}

function compactSelection(v: {
  session?: string;
  all?: boolean;
  "older-than"?: string;
  "dry-run"?: boolean;
}): CompactSelection {
  if (v.session !== undefined && v.all) throw new UsageError("--session and --all cannot be used together");
  if (v.session !== undefined && !v.session.trim())
    throw new UsageError("--session needs a session id (see synapse sessions)");
  let olderThanDays: number | undefined;
  if (v["older-than"] !== undefined) {
    const text = v["older-than"].trim();
    olderThanDays = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
    if (!(olderThanDays > 0))
      throw new UsageError(`--older-than needs a number of days greater than 0 (got "${v["older-than"]}")`);
  }
  return { session: v.session?.trim(), all: v.all ?? false, olderThanDays, dryRun: v["dry-run"] ?? false };
}
