// `synapse mcp list | get <name> | add <name> … | remove <name>`: the MCP servers of the user
// config and of the project's `.mcp.json`, in Claude Code's format. `list` and `get` start each
// server that may start (a project's only once approved) to show its state and tools.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { removeServer, readServers, writeServer } from "../mcp/config-writer.ts";
import { mcpSessionInput, serversFromConfig, userConfigPath } from "../mcp/from-config.ts";
import { parseServerEntry } from "../mcp/server-entry.ts";
import { startMcpServers, type ServerReport } from "../mcp/servers.ts";
import { PROJECT_FILE } from "../mcp/sources.ts";
import { EXIT, UsageError } from "../protocol/errors.ts";
import { inert } from "../render/inert.ts";
import { printErr, printOut } from "./output/print.ts";
import { itemAt } from "../text/checked-index.ts";

const USAGE =
  "usage: synapse mcp list | get <name> | remove <name> [--scope user|project] | " +
  "add <name> [--scope user|project] [--transport stdio|http|sse] [-e KEY=val] [--header 'K: v'] " +
  "-- <command> [args...]";

/**
 * `synapse mcp --help` (stdout, exit 0); `synapse mcp` alone prints it on stderr and exits 2, a usage
 * error, as `claude mcp` (commander: help on stderr, exit 1) and `codex mcp` (clap: exit 2) do.
 */
const HELP = `Usage: synapse mcp <command> [options]

Configure and inspect MCP servers (the user config's and the project's .mcp.json, Claude Code's format).

Commands:
  list                      each server: connected with its tool count, failed with its error, or needs approval
  get <name>                one server's state and its tools
  add <name> [options] -- <command> [args...]
  add <name> --transport http|sse [options] <url>
                            add a server: --scope user|project (default user), --transport stdio|http|sse,
                            -e KEY=val (stdio, repeatable), --header 'Name: value' (http and sse, repeatable)
  remove <name> [--scope user|project]
                            remove a server (--scope when both configs name it)
  help                      this text
`;

const HELP_WORDS = new Set(["--help", "-h", "help"]);

/** `mcp --help`, `mcp help`, or `mcp <command> … --help` before any `--` (after it, the words are the server's). */
function asksForHelp(words: string[]): boolean {
  const dash = words.indexOf("--");
  const own = dash === -1 ? words : words.slice(0, dash);
  return HELP_WORDS.has(words[0] ?? "") || own.includes("--help") || own.includes("-h");
}

type Scope = "user" | "project";

interface AddArgs {
  name: string;
  scope?: Scope;
  transport: "stdio" | "http" | "sse";
  env: Record<string, string>;
  headers: Record<string, string>;
  target: string[];
}

function scopeOf(value: string | undefined): Scope {
  if (value === "user" || value === "project") return value;
  throw new UsageError(`--scope must be user or project (got ${JSON.stringify(value ?? "")})`);
}

/** The words of `mcp add` / `mcp remove`: options anywhere before `--`, the command after it. */
export function parseAddArgs(words: string[]): AddArgs {
  const dash = words.indexOf("--");
  const before = dash === -1 ? words : words.slice(0, dash);
  const target = dash === -1 ? [] : words.slice(dash + 1);
  const out: AddArgs = { name: "", transport: "stdio", env: {}, headers: {}, target };
  const positionals: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const word = itemAt(before, i);
    const value = () => {
      const v = before[++i];
      if (v === undefined) throw new UsageError(`${word} needs a value`);
      return v;
    };
    if (word === "--scope" || word === "-s") out.scope = scopeOf(value());
    else if (word === "--transport" || word === "-t") {
      const t = value();
      if (t !== "stdio" && t !== "http" && t !== "sse") {
        throw new UsageError(`--transport must be stdio, http or sse (got "${t}")`);
      }
      out.transport = t;
    } else if (word === "-e" || word === "--env") {
      const pair = value();
      const eq = pair.indexOf("=");
      if (eq < 1) throw new UsageError(`-e needs KEY=value (got "${pair}")`);
      out.env[pair.slice(0, eq)] = pair.slice(eq + 1);
    } else if (word === "--header" || word === "-H") {
      const header = value();
      const colon = header.indexOf(":");
      if (colon < 1) throw new UsageError(`--header needs 'Name: value' (got "${header}")`);
      out.headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (word.startsWith("-")) throw new UsageError(`unknown option ${word} of synapse mcp add`);
    else positionals.push(word);
  }
  out.name = positionals.shift() ?? "";
  if (!out.name) throw new UsageError(USAGE);
  if (!/^[A-Za-z0-9_-]+$/.test(out.name)) {
    throw new UsageError(`a server name may hold only letters, digits, - and _ (got "${out.name}")`);
  }
  out.target.unshift(...positionals);
  return out;
}

/** The entry `add` writes, in Claude Code's format. */
export function entryOf(args: AddArgs): Record<string, unknown> {
  if (!args.target.length) {
    throw new UsageError(`mcp add needs the server's ${args.transport === "stdio" ? "command after --" : "URL"}`);
  }
  if (args.transport === "stdio") {
    if (Object.keys(args.headers).length) throw new UsageError("--header is for http and sse servers");
    const [command, ...rest] = args.target;
    return { type: "stdio", command, args: rest, env: args.env };
  }
  if (args.target.length > 1) {
    throw new UsageError(`an ${args.transport} server takes one URL (got ${args.target.length} words)`);
  }
  if (Object.keys(args.env).length) throw new UsageError("-e is for stdio servers (an http server gets --header)");
  const headers = Object.keys(args.headers).length ? { headers: args.headers } : {};
  return { type: args.transport, url: args.target[0], ...headers };
}

const paths = (config: Config) => ({ user: userConfigPath(config), project: join(config.cwd, PROJECT_FILE) });

function describe(report: ServerReport): string {
  const state =
    report.status === "connected"
      ? `connected, ${report.tools.length} tool${report.tools.length === 1 ? "" : "s"}`
      : report.status === "needs-approval"
        ? "needs approval (not started)"
        : `failed: ${report.error ?? "unknown error"}`;
  return `${report.name} (${report.scope}): ${state}`;
}

/** Starts what may start, reports, and ends every server; the log goes to a folder removed after. */
async function probe(config: Config, only?: string): Promise<{ reports: ServerReport[]; warnings: string[] }> {
  const warnings: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "synapse-mcp-"));
  const configured = serversFromConfig(config, (m) => warnings.push(m)).filter((s) => !only || s.name === only);
  const servers = startMcpServers(mcpSessionInput(config, configured, dir, () => {}));
  try {
    await servers.ready();
    return { reports: servers.reports(), warnings };
  } finally {
    await servers.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runMcpCommand(config: Config, words: string[]): Promise<number> {
  if (asksForHelp(words)) {
    await printOut(HELP);
    return EXIT.ok;
  }
  if (!words.length) {
    await printErr(HELP);
    return EXIT.usage;
  }
  const [sub, ...rest] = words;
  switch (sub) {
    case "list": {
      if (rest.length) throw new UsageError("mcp list takes no arguments");
      const { reports, warnings } = await probe(config);
      for (const w of warnings) await printErr(`synapse: warning: ${inert(w)}\n`);
      const lines = reports.map((r) => `${inert(describe(r))}\n`).join("");
      await printOut(lines || "No MCP servers configured.\n");
      return EXIT.ok;
    }
    case "get": {
      if (rest.length !== 1) throw new UsageError("usage: synapse mcp get <name>");
      const name = itemAt(rest, 0);
      const { reports } = await probe(config, name);
      const report = reports[0];
      if (!report) throw new UsageError(`no MCP server named "${name}" (see synapse mcp list)`);
      const lines = [describe(report), ...report.tools.map((t) => `  ${t}`)];
      await printOut(lines.map((l) => `${inert(l)}\n`).join(""));
      return EXIT.ok;
    }
    case "add":
      await printOut(asUsage(() => add(config, rest)));
      return EXIT.ok;
    case "remove":
      await printOut(asUsage(() => remove(config, rest)));
      return EXIT.ok;
    default:
      throw new UsageError(`unknown command "mcp ${sub}": one of list, get, add, remove (synapse mcp --help)`);
  }
}

/** A file that cannot be read or written is the user's to fix: one line, exit 2. */
function asUsage(work: () => string): string {
  try {
    return work();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message);
  }
}

// The user config may hold tokens (headers, env): only its owner reads it.
const modeOf = (scope: Scope) => (scope === "user" ? 0o600 : 0o644);

function add(config: Config, words: string[]): string {
  const args = parseAddArgs(words);
  const entry = entryOf(args);
  const checked = parseServerEntry(entry);
  if (!checked.ok) throw new UsageError(checked.error);
  const scope = args.scope ?? "user";
  const path = paths(config)[scope];
  writeServer(path, args.name, entry, modeOf(scope));
  return `Added MCP server "${inert(args.name)}" to ${inert(path)}\n`;
}

function remove(config: Config, words: string[]): string {
  const args = parseAddArgs(words);
  if (args.target.length) throw new UsageError("usage: synapse mcp remove <name> [--scope user|project]");
  const where = paths(config);
  const named = (s: Scope) => Object.hasOwn(readServers(where[s]), args.name);
  const scopes: Scope[] = args.scope ? [args.scope] : (["user", "project"] as Scope[]).filter(named);
  if (scopes.length > 1) {
    throw new UsageError(`"${args.name}" is in both ${where.user} and ${where.project}: name one with --scope`);
  }
  const scope = scopes[0];
  if (!scope || !removeServer(where[scope], args.name, modeOf(scope))) {
    throw new UsageError(`no MCP server named "${args.name}"${args.scope ? ` in ${where[args.scope]}` : ""}`);
  }
  return `Removed MCP server "${inert(args.name)}" from ${inert(where[scope])}\n`;
}
