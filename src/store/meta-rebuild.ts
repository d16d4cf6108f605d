// Rebuilding a session summary from its archive when meta.json is missing or unreadable, so a
// session whose messages are intact never disappears from listing or `--resume`.

import { stat } from "node:fs/promises";
import { listSegments, segmentLines } from "./archive.ts";
import { parseLine } from "./message-line.ts";
import { metaPath, titleFrom } from "./meta.ts";
import type { SessionMeta } from "./types.ts";

/** What the archive alone tells about a session. */
export interface ArchiveSummary {
  title: string;
  messages: number;
  bytes: number;
  /** The first message's timestamp (or `updated` when there is none). */
  created: number;
  /** The newest segment's modification time: the last write. */
  updated: number;
}

/** Whether the folder has at least one archive segment (possibly empty). */
export async function hasArchive(dir: string): Promise<boolean> {
  return (await listSegments(dir)).length > 0;
}

/**
 * Streams every segment once: message count, first user title, sizes and times. Undefined when
 * there is no segment at all. Damaged lines are skipped silently here; opening the archive for a
 * resume reports them as usual.
 */
export async function summarizeArchive(dir: string): Promise<ArchiveSummary | undefined> {
  const segments = await listSegments(dir);
  if (segments.length === 0) return undefined;
  let title = "";
  let messages = 0;
  let firstTs: number | undefined;
  let updated = 0;
  for (const segment of segments) {
    updated = Math.max(updated, (await stat(segment.path)).mtimeMs);
    if (segment.size === 0) continue;
    for await (const line of segmentLines(segment, () => undefined)) {
      const message = parseLine(line, segment.path, () => undefined);
      if (!message) continue;
      messages++;
      if (firstTs === undefined && Number.isFinite(message.ts)) firstTs = message.ts;
      if (!title) title = titleFrom(message) ?? "";
    }
  }
  updated = Math.floor(updated);
  const bytes = segments.reduce((sum, s) => sum + s.size, 0);
  return { title, messages, bytes, created: firstTs ?? updated, updated };
}

/** A summary for session `id` from its archive; cwd and model are whatever the caller knows. */
export function rebuiltMeta(id: string, summary: ArchiveSummary, cwd: string, model: string): SessionMeta {
  const { title, created, updated, messages, bytes } = summary;
  return { id, title, cwd, model, created: Math.min(created, updated), updated, messages, bytes };
}

export function rebuildWarning(dir: string): string {
  return `${metaPath(dir)} is missing or unreadable; rebuilt from messages.jsonl`;
}
