// One server entry of an MCP configuration, in Claude Code's format: `{command, args, env, cwd}` for
// a local process, `{type: "http" | "sse", url, headers}` for a remote one. Checked here once, so
// a bad entry fails that one server with a sentence naming it, never the session.

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import * as z from "zod/mini";

export type McpServerEntry =
  | { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { type: "http" | "sse"; url: string; headers: Record<string, string> }
  /** A server inside the program driving synapse (Agent SDK `createSdkMcpServer`); never from a config file. */
  | { type: "in-process"; transport(): Transport };

// Built on first use: a session without MCP servers never builds them.
let shapes: ReturnType<typeof build> | undefined;
function build() {
  const strings = z.record(z.string(), z.string());
  const stdio = z.object({
    type: z.optional(z.literal("stdio")),
    command: z.string().check(z.minLength(1)),
    args: z.optional(z.array(z.string())),
    env: z.optional(strings),
    cwd: z.optional(z.string()),
  });
  const remote = z.object({
    type: z.enum(["http", "streamable-http", "streamableHttp", "sse"]),
    url: z.string().check(z.minLength(1)),
    headers: z.optional(strings),
  });
  return { stdio, remote };
}
function entryShapes(): ReturnType<typeof build> {
  shapes ??= build();
  return shapes;
}

export type EntryCheck = { ok: true; entry: McpServerEntry } | { ok: false; error: string };

/** Checks one entry as written (before `${VAR}` expansion). */
export function parseServerEntry(raw: unknown): EntryCheck {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, error: "an entry must be a JSON object" };
  }
  const type = (raw as { type?: unknown }).type;
  if (type === undefined || type === "stdio") {
    const parsed = z.safeParse(entryShapes().stdio, raw);
    if (!parsed.success) {
      const needs = '"command" (a string), "args" (strings), "env" (string values), "cwd" (a string)';
      return { ok: false, error: `a stdio entry needs ${needs}` };
    }
    const { command, args = [], env = {}, cwd } = parsed.data;
    return { ok: true, entry: { type: "stdio", command, args, env, ...(cwd !== undefined ? { cwd } : {}) } };
  }
  const parsed = z.safeParse(entryShapes().remote, raw);
  if (!parsed.success) {
    if (typeof type !== "string" || !["http", "streamable-http", "streamableHttp", "sse"].includes(type)) {
      return { ok: false, error: `unknown "type" ${JSON.stringify(type)} (stdio, http or sse)` };
    }
    return { ok: false, error: `an ${type} entry needs "url" (a string) and "headers" (string values)` };
  }
  const { url, headers = {} } = parsed.data;
  return { ok: true, entry: { type: parsed.data.type === "sse" ? "sse" : "http", url, headers } };
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${VAR}` and `${VAR:-default}` in one string; names without a value and without a default are listed. */
type Env = Readonly<Record<string, string | undefined>>;

export function expandVars(text: string, env: Env, missing: Set<string>): string {
  return text.replace(VAR, (_whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return "";
  });
}

/** The entry with every string expanded; an error names the variables that have no value. */
export function expandEntry(entry: McpServerEntry, env: Env): EntryCheck {
  if (entry.type === "in-process") return { ok: true, entry };
  const missing = new Set<string>();
  const x = (s: string) => expandVars(s, env, missing);
  const map = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, x(v)]));
  const cwd = entry.type === "stdio" && entry.cwd !== undefined ? { cwd: x(entry.cwd) } : {};
  const expanded: McpServerEntry =
    entry.type === "stdio"
      ? { type: "stdio", command: x(entry.command), args: entry.args.map(x), env: map(entry.env), ...cwd }
      : { type: entry.type, url: x(entry.url), headers: map(entry.headers) };
  if (missing.size) {
    const names = [...missing].join(", ");
    return { ok: false, error: `missing environment variable${missing.size > 1 ? "s" : ""} ${names}` };
  }
  return { ok: true, entry: expanded };
}
