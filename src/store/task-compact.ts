// `synapse compact` for the sub-agent transcripts under one session (`tasks/<task-id>/`, written by
// task-store.ts): every plain segment is compressed and images no line names are removed, each step
// as crash-safe as for the session itself (segment-compress.ts: copy, check, rename, then unlink).

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import { listSegments, segmentLines } from "./archive.ts";
import { storeError } from "./errors.ts";
import { collectImageReferences, IMAGES_FOLDER, sweepImages } from "./image-gc.ts";
import { acquireLock, lockHolder, LOCK_FILE, type SessionLock } from "./lock.ts";
import { readMeta, removeStaleTemps, writeMeta } from "./meta.ts";
import { compressSegment, syncDir } from "./segment-compress.ts";

export const TASKS_FOLDER = "tasks";

export interface TaskCompaction {
  /** Transcripts that had (or, in a dry run, would have) something compressed or removed. */
  transcripts: number;
  segmentsCompressed: number;
  /** Uncompressed bytes of those segments. */
  segmentBytes: number;
  imagesRemoved: number;
  imageBytes: number;
}

/**
 * Call only while holding the parent session's lock (a dry run: after seeing no one holds it). A
 * sub-agent runs only inside the process that holds its parent's lock and its transcript is never
 * reopened for appending, so here every transcript is finished and even its last segment can go;
 * should one ever be reopened, Archive.open starts a plain segment after a compressed last one.
 */
export async function compactTaskTranscripts(sessionDir: string, dryRun: boolean): Promise<TaskCompaction> {
  const total: TaskCompaction = {
    transcripts: 0,
    segmentsCompressed: 0,
    segmentBytes: 0,
    imagesRemoved: 0,
    imageBytes: 0,
  };
  const root = join(sessionDir, TASKS_FOLDER);
  for (const name of (await readdir(root).catch(() => [] as string[])).sort()) {
    const dir = join(root, name);
    if (!(await stat(dir).catch(() => undefined))?.isDirectory()) continue;
    const done = await compactTranscript(dir, name, dryRun);
    if (!done || done.segmentsCompressed + done.imagesRemoved === 0) continue;
    total.transcripts++;
    total.segmentsCompressed += done.segmentsCompressed;
    total.segmentBytes += done.segmentBytes;
    total.imagesRemoved += done.imagesRemoved;
    total.imageBytes += done.imageBytes;
  }
  return total;
}

/** undefined: its own lock is held by a live process (left alone, whatever the parent's lock says). */
async function compactTranscript(
  dir: string,
  taskId: string,
  dryRun: boolean,
): Promise<Omit<TaskCompaction, "transcripts"> | undefined> {
  let lock: SessionLock | undefined;
  try {
    if (dryRun) {
      if (lockHolder(dir)) return undefined;
    } else {
      try {
        // A lock a killed worker left is taken over; a live one is respected.
        lock = acquireLock(dir, taskId);
      } catch (err) {
        if (err instanceof UsageError) return undefined;
        throw err;
      }
      await removeStaleTemps(dir);
    }
    const segments = await listSegments(dir);
    const toCompress = segments.filter((s) => !s.compressed && s.size > 0);
    const images = await sweepImages(dir, await imageReferences(dir), dryRun);
    if (!dryRun) {
      if (images.removed > 0) await syncDir(join(dir, IMAGES_FOLDER));
      for (const segment of toCompress) await compressSegment(dir, segment);
      if (toCompress.length > 0) await recordBytes(dir);
    }
    return {
      segmentsCompressed: toCompress.length,
      segmentBytes: toCompress.reduce((sum, s) => sum + s.size, 0),
      imagesRemoved: images.removed,
      imageBytes: images.bytes,
    };
  } finally {
    lock?.release();
  }
}

/** Which images the transcript names; its segments are read only when it has images at all. */
async function imageReferences(dir: string): Promise<Set<string>> {
  const referenced = new Set<string>();
  if ((await readdir(join(dir, IMAGES_FOLDER)).catch(() => [] as string[])).length === 0) return referenced;
  for (const segment of await listSegments(dir)) {
    if (segment.size === 0) continue;
    try {
      for await (const line of segmentLines(segment, () => undefined)) collectImageReferences(line.text, referenced);
    } catch (err) {
      throw storeError("read sub-agent transcript", segment.path, err);
    }
  }
  return referenced;
}

// Keeps meta.json's byte count equal to the archive's, as compact-session.ts does for a session.
async function recordBytes(dir: string): Promise<void> {
  const found = await readMeta(dir);
  if (found.state !== "ok") return;
  const bytes = (await listSegments(dir)).reduce((sum, s) => sum + s.size, 0);
  if (found.meta.bytes !== bytes) await writeMeta(dir, { ...found.meta, bytes });
}

/** Bytes of every transcript's files (segments, meta, images), locks left out. */
export async function transcriptBytes(sessionDir: string): Promise<number> {
  let total = 0;
  const root = join(sessionDir, TASKS_FOLDER);
  for (const name of await readdir(root).catch(() => [] as string[])) {
    for (const folder of [join(root, name), join(root, name, IMAGES_FOLDER)]) {
      for (const file of await readdir(folder).catch(() => [] as string[])) {
        if (file === LOCK_FILE || file.startsWith(`${LOCK_FILE}.`)) continue;
        const info = await stat(join(folder, file)).catch(() => undefined);
        if (info?.isFile()) total += info.size;
      }
    }
  }
  return total;
}
