// Listing stored sessions (for `synapse sessions`, `--continue`, `--resume <prefix>`), newest
// first, and the table that shows them.

import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { readMeta } from "./meta.ts";
import { sessionsRoot } from "./paths.ts";
import type { SessionMeta } from "./types.ts";

/** Every session with a readable meta.json, most recently updated first. */
export async function listSessions(home: string): Promise<SessionMeta[]> {
  const root = sessionsRoot(home);
  const names = await readdir(root).catch(() => [] as string[]);
  const metas: SessionMeta[] = [];
  for (const name of names) {
    const meta = await readMeta(join(root, name));
    // The folder name is the id that resume uses, whatever meta.json says.
    if (meta) metas.push({ ...meta, id: name });
  }
  return metas.sort((a, b) => b.updated - a.updated || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
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
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** A plain-text table: id, updated (local time), title, messages, size. Ends with a newline. */
export function formatSessionTable(sessions: readonly SessionMeta[], titleWidth = 48): string {
  if (sessions.length === 0) return "no sessions\n";
  const rows = sessions.map((s) => [
    s.id,
    formatTime(s.updated),
    clip(s.title || "(untitled)", titleWidth),
    String(s.messages),
    formatBytes(s.bytes),
  ]);
  const header = ["ID", "UPDATED", "TITLE", "MESSAGES", "SIZE"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const rightAligned = new Set([3, 4]);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [header, ...rows].map(line).join("\n") + "\n";
}
