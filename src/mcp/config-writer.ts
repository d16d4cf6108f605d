// `synapse mcp add` and `remove`: one server entry written into, or taken out of, a JSON file
// (the user config or the project's `.mcp.json`), every other key kept as it was. Written to a
// temporary file and renamed, so a crash never leaves half a config.

import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileReason } from "../protocol/file-reason.ts";
import { readRegularFile } from "../protocol/regular-file.ts";

function readObject(path: string): Record<string, unknown> {
  let text: string;
  try {
    // A repository's .mcp.json may be a FIFO: refused, not waited on.
    text = readRegularFile(path, 1024 * 1024);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`cannot read ${path}: ${fileReason(err)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error(`${path} is not a JSON object`);
  return value as Record<string, unknown>;
}

function write(path: string, value: Record<string, unknown>, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode });
  renameSync(tmp, path);
}

function serversIn(file: Record<string, unknown>, path: string): Record<string, unknown> {
  const servers = file.mcpServers ?? {};
  if (!servers || typeof servers !== "object" || Array.isArray(servers)) {
    throw new Error(`"mcpServers" in ${path} is not an object`);
  }
  return servers as Record<string, unknown>;
}

/** The servers a file names (none when it does not exist). */
export function readServers(path: string): Record<string, unknown> {
  return serversIn(readObject(path), path);
}

/** Adds (or replaces) one server; `mode` for a new file (the user config holds secrets: 0600). */
export function writeServer(path: string, name: string, entry: Record<string, unknown>, mode: number): void {
  const file = readObject(path);
  file.mcpServers = { ...serversIn(file, path), [name]: entry };
  write(path, file, mode);
}

/** Removes one server; false when the file did not name it. */
export function removeServer(path: string, name: string, mode: number): boolean {
  const file = readObject(path);
  const servers = { ...serversIn(file, path) };
  if (!Object.hasOwn(servers, name)) return false;
  delete servers[name];
  file.mcpServers = servers;
  write(path, file, mode);
  return true;
}
