// An archive's segment files (`messages.jsonl`, `messages.1.jsonl`, ..., `synapse compact`'s
// `.gz` copies): their names, their order, and their lines. Apart from archive.ts, so that what
// reads an archive's lines (rewind-record.ts, compact, meta repair) needs no Archive.

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { GZIP_SUFFIX, type Line, readLines } from "./line-reader.ts";

export interface Segment {
  index: number;
  path: string;
  /** Bytes on disk (as far as this process wrote or found them); compressed bytes for a `.gz`. */
  size: number;
  /** A gzip copy made by `synapse compact`: read whole, never appended to. */
  compressed?: boolean;
}

export interface ArchiveSnapshot {
  segments: Segment[];
  /** Lines not yet written (a failing disk), in order. */
  queued: string[];
}

const SEGMENT = /^messages(?:\.(\d+))?\.jsonl(\.gz)?$/;

export function segmentName(index: number): string {
  return index === 0 ? "messages.jsonl" : `messages.${index}.jsonl`;
}

/** The name `synapse compact` gives a segment's gzip copy. */
export function compressedName(index: number): string {
  return segmentName(index) + GZIP_SUFFIX;
}

/**
 * The segments in order. When a segment exists both plain and compressed (compact was stopped
 * between writing the copy and removing the original), the plain one is the segment and the copy
 * is ignored, so no line is read twice.
 */
export async function listSegments(dir: string): Promise<Segment[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const byIndex = new Map<number, Segment>();
  for (const name of names) {
    const m = SEGMENT.exec(name);
    if (!m) continue;
    const index = m[1] ? Number(m[1]) : 0;
    const compressed = m[2] !== undefined;
    if (compressed && byIndex.has(index)) continue;
    const path = join(dir, name);
    const size = await stat(path).then(
      (s) => s.size,
      // Gone since readdir: compact removed the plain original after its copy was in place.
      (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? undefined : Promise.reject(err)),
    );
    if (size === undefined) continue;
    byIndex.set(index, compressed ? { index, path, size, compressed } : { index, path, size });
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** The segment's lines; a damaged compressed segment is read up to the damage, with a warning. */
export async function* segmentLines(segment: Segment, warn: (message: string) => void): AsyncGenerator<Line> {
  if (!segment.compressed) {
    yield* readLines(segment.path, segment.size);
    return;
  }
  try {
    yield* readLines(segment.path);
  } catch (err) {
    warn(`cannot read the rest of ${segment.path}: ${(err as Error).message}`);
  }
}
