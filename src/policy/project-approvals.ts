// The user's approvals of what a project's own files ask to run: a repository's `.mcp.json` names
// MCP servers, its `.synapse/config.json` names hook commands. None runs until the user approved
// that exact entry for that project. Kept in synapse's own data folder (never in the repository,
// which could otherwise approve itself), by the project's real path and a hash of the entry as
// written: a changed entry is a new question. One file per kind of entry.

import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../runtime/portable.ts";
import { canonicalJson } from "../text/canonical-json.ts";

export type ApprovalKind = "mcp" | "hooks";

const FILES: Record<ApprovalKind, string> = { mcp: "mcp-approvals.json", hooks: "hook-approvals.json" };

/** The MCP servers' approvals file (in SYNAPSE_HOME). */
export const APPROVALS_FILE = FILES.mcp;
/** The project hooks' approvals file (in SYNAPSE_HOME). */
export const HOOK_APPROVALS_FILE = FILES.hooks;

type Approvals = Record<string, Record<string, string>>;

export async function entryHash(name: string, raw: unknown): Promise<string> {
  return sha256Hex(new TextEncoder().encode(canonicalJson({ name, raw })));
}

function projectKey(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

function load(home: string, kind: ApprovalKind): Approvals {
  try {
    const parsed = JSON.parse(readFileSync(join(home, FILES[kind]), "utf8"));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export async function isApproved(
  home: string,
  cwd: string,
  name: string,
  raw: unknown,
  kind: ApprovalKind = "mcp",
): Promise<boolean> {
  return load(home, kind)[projectKey(cwd)]?.[name] === (await entryHash(name, raw));
}

/** Remembers the approval (temp file + rename: a crash never leaves half a file). */
export async function recordApproval(
  home: string,
  cwd: string,
  name: string,
  raw: unknown,
  kind: ApprovalKind = "mcp",
): Promise<void> {
  const all = load(home, kind);
  const key = projectKey(cwd);
  all[key] = { ...all[key], [name]: await entryHash(name, raw) };
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const tmp = join(home, `.${FILES[kind]}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, join(home, FILES[kind]));
}
