// Command-line parsing (node:util parseArgs: @std/cli is published only on JSR, unreachable here).

import { parseArgs } from "node:util";
import type { ConfigFlags } from "../config/config.ts";
import { UsageError } from "../protocol/errors.ts";

export type Command =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "sessions" }
  | { kind: "doctor" }
  | { kind: "run"; prompt: string | undefined; resume?: { id: string } | { latest: true }; images: string[] };

export interface ParsedArgs {
  command: Command;
  flags: ConfigFlags;
}

const SUBCOMMANDS = new Set(["sessions", "doctor"]);

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  model: { type: "string", short: "m" },
  "output-format": { type: "string", short: "o" },
  continue: { type: "boolean", short: "c" },
  resume: { type: "string", short: "r" },
  cwd: { type: "string", short: "C" },
  "max-turns": { type: "string" },
  "permission-mode": { type: "string" },
  yes: { type: "boolean", short: "y" },
  quiet: { type: "boolean", short: "q" },
  "no-color": { type: "boolean" },
  image: { type: "string", multiple: true },
  "list-sessions": { type: "boolean" },
} as const;

export function parseCommandLine(argv: string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    // parseArgs messages are long and mention internals; keep the useful first sentence.
    const message = (err as Error).message.split(". ")[0].replace(/^Unknown option '(.+)'$/, "unknown option $1");
    throw new UsageError(message);
  }
  const { values: v, positionals } = parsed;

  if (v.yes && v["permission-mode"] && v["permission-mode"] !== "bypass") {
    throw new UsageError("-y conflicts with --permission-mode " + v["permission-mode"]);
  }
  if (v.continue && v.resume !== undefined) throw new UsageError("--continue and --resume cannot be used together");
  // `synapse -r "$SID"` with an empty variable must not quietly start a new session.
  if (v.resume !== undefined && !v.resume.trim()) throw new UsageError("--resume needs a session id (see synapse sessions)");

  const flags: ConfigFlags = {
    cwd: v.cwd,
    model: v.model,
    outputFormat: v["output-format"],
    maxTurns: v["max-turns"],
    quiet: v.quiet,
    noColor: v["no-color"],
    permissionMode: v.yes ? "bypass" : v["permission-mode"],
  };

  if (v.help) return { command: { kind: "help" }, flags };
  if (v.version) return { command: { kind: "version" }, flags };
  if (v["list-sessions"]) return { command: { kind: "sessions" }, flags };

  // A subcommand is only recognised as the sole first word before any `--`.
  const dashDash = argv.indexOf("--");
  const first = positionals[0];
  const firstIsBeforeDashDash = dashDash === -1 || argv.indexOf(first) < dashDash;
  if (first && SUBCOMMANDS.has(first) && firstIsBeforeDashDash) {
    if (positionals.length > 1) throw new UsageError(`${first} takes no arguments`);
    return { command: { kind: first as "sessions" | "doctor" }, flags };
  }

  const prompt = positionals.length ? positionals.join(" ") : undefined;
  const resume = v.resume !== undefined ? { id: v.resume.trim() } : v.continue ? { latest: true as const } : undefined;
  return { command: { kind: "run", prompt, resume, images: v.image ?? [] }, flags };
}
