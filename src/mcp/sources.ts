// Which MCP servers a session has: the user's own (the `mcpServers` key of the user config), the
// project's `.mcp.json` at the workspace root, and `--mcp-config` files or JSON (with
// `--strict-mcp-config`, only those). A later source wins for a name: user < project < flag.

import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import { fileReason } from "../protocol/file-reason.ts";
import { readRegularFile } from "../protocol/regular-file.ts";
import { type McpServerEntry, parseServerEntry } from "./server-entry.ts";

export type McpScope = "user" | "project" | "flag";

export interface ConfiguredServer {
  name: string;
  scope: McpScope;
  /** Where it was written: a file path, or `--mcp-config`. */
  origin: string;
  /** The entry as written (its approval is for exactly this). */
  raw: unknown;
  entry?: McpServerEntry;
  /** Set when the entry cannot be used: the server fails with it. */
  error?: string;
}

export interface McpSourceInput {
  cwd: string;
  userServers?: Record<string, unknown>;
  userOrigin: string;
  /** `--mcp-config` values: a file path or a JSON text. */
  flagConfigs: readonly string[];
  strict: boolean;
}

export const PROJECT_FILE = ".mcp.json";
/** A config larger than this is no configuration: refused unread. */
const MAX_CONFIG_BYTES = 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The `mcpServers` object of a parsed config text; `says` words the problem. */
export function serversOf(value: unknown, says: (problem: string) => string): Record<string, unknown> {
  if (!isObject(value)) throw new Error(says("not a JSON object"));
  const servers = value.mcpServers ?? {};
  if (!isObject(servers)) throw new Error(says('"mcpServers" must be an object of servers by name'));
  return servers;
}

function entries(servers: Record<string, unknown>, scope: McpScope, origin: string): ConfiguredServer[] {
  return Object.entries(servers).map(([name, raw]) => {
    const checked = parseServerEntry(raw);
    const server = { name, scope, origin, raw };
    return checked.ok ? { ...server, entry: checked.entry } : { ...server, error: checked.error };
  });
}

/** The project's `.mcp.json`, if there is one; a broken file is one warning, never a failed session. */
function projectServers(cwd: string, warn: (message: string) => void): ConfiguredServer[] {
  const path = join(cwd, PROJECT_FILE);
  let text: string;
  try {
    // A repository's .mcp.json may be a FIFO or /dev/zero behind a link: reading it would hang the start.
    const info = statSync(path);
    if (!info.isFile() || info.size > MAX_CONFIG_BYTES) {
      warn(`ignored ${path}: not a regular file of at most ${MAX_CONFIG_BYTES} bytes`);
      return [];
    }
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  try {
    return entries(
      serversOf(JSON.parse(text), (p) => p),
      "project",
      path,
    );
  } catch (err) {
    warn(`ignored ${path}: ${(err as Error).message}`);
    return [];
  }
}

/** One `--mcp-config` value: JSON text when it starts with `{`, else a file (a bad one is a usage error). */
function flagServers(value: string, cwd: string): ConfiguredServer[] {
  const inline = value.trim().startsWith("{");
  const origin = inline ? "--mcp-config" : resolve(cwd, value);
  let text = value;
  if (!inline) {
    try {
      // Checked without blocking: a FIFO given here would hold the start, deaf to Ctrl-C.
      text = readRegularFile(origin, MAX_CONFIG_BYTES);
    } catch (err) {
      throw new UsageError(`--mcp-config: cannot read ${origin}: ${fileReason(err)}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--mcp-config: ${inline ? "the JSON" : origin} is not valid JSON: ${(err as Error).message}`);
  }
  try {
    return entries(
      serversOf(parsed, (p) => `--mcp-config: ${inline ? "the JSON" : origin}: ${p}`),
      "flag",
      origin,
    );
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Every configured server, one per name (the later source wins). */
export function configuredServers(input: McpSourceInput, warn: (message: string) => void): ConfiguredServer[] {
  const all: ConfiguredServer[] = [];
  if (!input.strict) {
    all.push(...entries(input.userServers ?? {}, "user", input.userOrigin));
    all.push(...projectServers(input.cwd, warn));
  }
  for (const value of input.flagConfigs) all.push(...flagServers(value, input.cwd));
  const byName = new Map<string, ConfiguredServer>();
  for (const server of all) {
    byName.delete(server.name);
    byName.set(server.name, server);
  }
  return [...byName.values()];
}
