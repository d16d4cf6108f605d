// Listing stored sessions (for `synapse sessions`, `--continue`, `--resume <prefix>`), newest
// first, and the table that shows them.

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { listSegments } from "./archive.ts";
import { metaPath, readMeta } from "./meta.ts";
import { rebuiltMeta, rebuildWarning, summarizeArchive } from "./meta-rebuild.ts";
import { sessionsRoot } from "./paths.ts";
import { storeError } from "./errors.ts";
import { headUnits } from "../text/code-point.ts";
import type { ListedSession } from "./types.ts";
import { itemAt } from "../text/checked-index.ts";

/**
 * Every session with a readable meta.json or archive, most recently updated first. A session whose
 * meta.json is missing or unreadable is summarized from its archive (state "rebuilt", cwd unknown)
 * and reported through `onWarning`, once per call; one written by a newer synapse is listed with
 * a note (state "newer"). Only folders with neither are left out. Nothing is written.
 */
export async function listSessions(home: string, onWarning?: (message: string) => void): Promise<ListedSession[]> {
  const root = sessionsRoot(home);
  // No folder yet means no sessions yet; any other failure (permissions, a file where the folder
  // should be) must be told, not shown as an empty list.
  const names = await readdir(root).catch((err: NodeJS.ErrnoException) => {
    if (err?.code === "ENOENT") return [] as string[];
    throw storeError("read the sessions in", root, err);
  });
  const sessions: ListedSession[] = [];
  for (const name of names) {
    const dir = join(root, name);
    try {
      const session = await describe(dir, name, onWarning);
      if (session) sessions.push(session);
    } catch (err) {
      // One unreadable folder must not hide the others.
      onWarning?.(`cannot read session ${dir}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return sessions.sort((a, b) => b.updated - a.updated || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

// The folder name is the id that resume uses, whatever meta.json says.
async function describe(
  dir: string,
  id: string,
  onWarning?: (message: string) => void,
): Promise<ListedSession | undefined> {
  const found = await readMeta(dir);
  if (found.state === "ok") return { ...found.meta, id };
  if (found.state === "newer") {
    const f = found.fields;
    const updated = f.updated ?? Math.floor((await stat(metaPath(dir))).mtimeMs);
    const bytes = f.bytes ?? (await listSegments(dir)).reduce((sum, s) => sum + s.size, 0);
    return {
      id,
      title: f.title ?? "",
      cwd: f.cwd ?? "",
      model: f.model ?? "?",
      created: f.created ?? updated,
      updated,
      messages: f.messages ?? 0,
      bytes,
      state: "newer",
      note: `written by a newer synapse (format ${found.format}); cannot resume`,
    };
  }
  const summary = await summarizeArchive(dir);
  if (!summary) return undefined;
  onWarning?.(rebuildWarning(dir));
  return { ...rebuiltMeta(id, summary, "", "?"), state: "rebuilt", note: "meta.json unreadable; resume with -r <id>" };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function formatTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${headUnits(text, width - 1)}…`;
}

/** The sessions that belong to `cwd`, and those whose directory is unknown (damaged meta.json). */
export function sessionsFor(sessions: readonly ListedSession[], cwd: string): ListedSession[] {
  return sessions.filter((s) => s.cwd === cwd || !s.cwd);
}

/** `~/x` for a directory under home, so the column stays short. */
function shortDir(dir: string, homeDir: string | undefined): string {
  if (!dir) return "?";
  if (homeDir && homeDir !== "/" && (dir === homeDir || dir.startsWith(`${homeDir}/`)))
    return `~${dir.slice(homeDir.length)}`;
  return dir;
}

/**
 * A plain-text table: id, updated (local time), directory, title, messages, size (and notes, if
 * any). Ends with a newline. `homeDir` shortens directories to `~/…`.
 */
export function formatSessionTable(sessions: readonly ListedSession[], titleWidth = 48, homeDir?: string): string {
  if (sessions.length === 0) return "no sessions\n";
  // The NOTE column appears only when needed, so the usual table keeps its shape.
  const withNotes = sessions.some((s) => s.note);
  const rows = sessions.map((s) => {
    const row = [
      s.id,
      formatTime(s.updated),
      clip(shortDir(s.cwd, homeDir), 40),
      clip(s.title || "(untitled)", titleWidth),
      String(s.messages),
      formatBytes(s.bytes),
    ];
    if (withNotes) row.push(s.note ?? "");
    return row;
  });
  const header = ["ID", "UPDATED", "DIRECTORY", "TITLE", "MESSAGES", "SIZE", ...(withNotes ? ["NOTE"] : [])];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => itemAt(r, i).length)));
  const rightAligned = new Set([4, 5]);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (rightAligned.has(i) ? c.padStart(itemAt(widths, i)) : c.padEnd(itemAt(widths, i))))
      .join("  ")
      .trimEnd();
  return `${[header, ...rows].map(line).join("\n")}\n`;
}
