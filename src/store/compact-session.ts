// `synapse compact` for one session: under the session's lock, compress the archive segments that
// end before the one holding the last compaction record (resume never needs them for context),
// remove images no message refers to, or delete the whole session when it is older than asked.
// Every step leaves the session readable if the process dies there; a second run finishes it.

import { mkdir, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import { compressedName, listSegments, segmentLines, type Segment } from "./archive.ts";
import { storeError } from "./errors.ts";
import { CHECKPOINTS_FOLDER } from "./checkpoints.ts";
import { CHECKPOINT_TURNS } from "./checkpoints-index.ts";
import { pruneCheckpoints } from "./checkpoints-sweep.ts";
import { collectImageReferences, IMAGES_FOLDER, sweepImages } from "./image-gc.ts";
import { acquireLock, lockHolder, LOCK_FILE, type SessionLock } from "./lock.ts";
import { parseLine } from "./message-line.ts";
import { readMeta, removeStaleTemps, writeMeta } from "./meta.ts";
import { sessionsRoot } from "./paths.ts";
import { compressSegment, syncDir } from "./segment-compress.ts";
import { compactTaskTranscripts, transcriptBytes } from "./task-compact.ts";

export type CompactStatus = "compacted" | "unchanged" | "deleted" | "skipped" | "failed";

export interface CompactReport {
  id: string;
  status: CompactStatus;
  /** Why it was skipped or failed, or why it was deleted. */
  note?: string;
  /**
   * The session folder's bytes (archive, images, meta) before and after; in a dry run "after" leaves
   * compression out.
   */
  bytesBefore: number;
  bytesAfter: number;
  segmentsCompressed: number;
  /** Uncompressed bytes of those segments. */
  segmentBytes: number;
  imagesRemoved: number;
  imageBytes: number;
  /** `/rewind` snapshots no kept prompt refers to (a session keeps its last 100 prompts'). */
  checkpointsRemoved: number;
  checkpointBytes: number;
  /** Sub-agent transcripts (`tasks/`) compacted, and how many of the segments above were theirs. */
  taskTranscripts: number;
  taskSegments: number;
}

export interface CompactOptions {
  /** SYNAPSE_HOME. */
  home: string;
  dryRun: boolean;
  /** Delete the session instead when it was last updated longer ago than this. */
  olderThanMs?: number;
  now: number;
}

/** Where deleted sessions go for the moment between leaving `sessions/` and being removed. */
const TRASH = "compact-trash";

/** Handles session `id`; never throws: a failure is a report with status "failed". */
export async function compactSession(id: string, options: CompactOptions): Promise<CompactReport> {
  const dir = join(sessionsRoot(options.home), id);
  const report: CompactReport = {
    id,
    status: "unchanged",
    bytesBefore: 0,
    bytesAfter: 0,
    segmentsCompressed: 0,
    segmentBytes: 0,
    imagesRemoved: 0,
    imageBytes: 0,
    checkpointsRemoved: 0,
    checkpointBytes: 0,
    taskTranscripts: 0,
    taskSegments: 0,
  };
  let lock: SessionLock | undefined;
  try {
    report.bytesBefore = report.bytesAfter = await folderBytes(dir);
    let found = await readMeta(dir);
    if (found.state === "newer") return skip(report, `written by a newer synapse (format ${found.format})`);
    const holder = lockHolder(dir);
    if (holder) return skip(report, `in use by ${holder}`);
    if (!options.dryRun) {
      try {
        lock = acquireLock(dir, id);
      } catch (err) {
        // Taken between the look and the grab: still a session in use, not a failure.
        if (err instanceof UsageError) return skip(report, err.message);
        throw err;
      }
      // What an earlier, killed run left half written.
      await removeStaleTemps(dir);
      // Read again under the lock: a run that ended meanwhile may have made the session young.
      found = await readMeta(dir);
      if (found.state === "newer") return skip(report, `written by a newer synapse (format ${found.format})`);
    }

    if (options.olderThanMs !== undefined) {
      const updated = found.state === "ok" ? found.meta.updated : await newestWrite(dir);
      const age = options.now - updated;
      if (age > options.olderThanMs) {
        if (!options.dryRun) await deleteSession(options.home, dir, id);
        report.status = "deleted";
        report.note = `not updated for ${Math.floor(age / 86_400_000)} days`;
        report.bytesAfter = 0;
        return report;
      }
    }

    // meta.json's byte count disagreeing with the archive means a writer (or a compact run) died
    // before updating it: then the scan also counts the messages, as resume would.
    const staleMeta =
      found.state === "ok" && found.meta.bytes !== (await listSegments(dir)).reduce((sum, x) => sum + x.size, 0);
    const scan = await scanArchive(dir, staleMeta);
    const toCompress = scan.segments.filter((s) => !s.compressed && s.index < scan.lastCompactionSegment);
    const images = await sweepImages(dir, scan.images, options.dryRun);
    // Under the session's lock (a dry run: no one held it), so none of its sub-agents is running.
    const tasks = await compactTaskTranscripts(dir, options.dryRun);
    const checkpoints = await pruneCheckpoints(join(dir, CHECKPOINTS_FOLDER), CHECKPOINT_TURNS, options.dryRun);
    report.checkpointsRemoved = checkpoints.removed;
    report.checkpointBytes = checkpoints.bytes;
    report.imagesRemoved = images.removed + tasks.imagesRemoved;
    report.imageBytes = images.bytes + tasks.imageBytes;
    report.segmentsCompressed = toCompress.length + tasks.segmentsCompressed;
    report.segmentBytes = toCompress.reduce((sum, s) => sum + s.size, 0) + tasks.segmentBytes;
    report.taskTranscripts = tasks.transcripts;
    report.taskSegments = tasks.segmentsCompressed;
    if (options.dryRun) {
      report.bytesAfter = report.bytesBefore - report.imageBytes - report.checkpointBytes;
    } else {
      if (images.removed > 0) await syncDir(join(dir, IMAGES_FOLDER));
      // Before compressing: a copy of a segment compressed now is replaced by the new one anyway.
      await removeShadowCopies(
        dir,
        scan.segments.filter((s) => !s.compressed && !toCompress.includes(s)),
      );
      for (const segment of toCompress) await compressSegment(dir, segment);
      if (toCompress.length > 0 || staleMeta) await recordArchiveBytes(dir, scan.messages);
      report.bytesAfter = await folderBytes(dir);
    }
    if (report.segmentsCompressed > 0 || report.imagesRemoved > 0 || report.checkpointsRemoved > 0)
      report.status = "compacted";
    return report;
  } catch (err) {
    report.status = "failed";
    report.note = err instanceof Error ? err.message : String(err);
    return report;
  } finally {
    lock?.release();
  }
}

function skip(report: CompactReport, note: string): CompactReport {
  report.status = "skipped";
  report.note = note;
  return report;
}

interface ArchiveScan {
  segments: Segment[];
  /** Index of the segment holding the last compaction record (-1: none). */
  lastCompactionSegment: number;
  images: Set<string>;
  /** Readable messages, when counted. */
  messages?: number;
}

/** One streaming pass over every segment: where the last compaction record is, which images are named. */
async function scanArchive(dir: string, countMessages: boolean): Promise<ArchiveScan> {
  const segments = await listSegments(dir);
  const images = new Set<string>();
  let lastCompactionSegment = -1;
  let messages = 0;
  const quiet = () => undefined;
  for (const segment of segments) {
    if (segment.size === 0) continue;
    try {
      for await (const line of segmentLines(segment, quiet)) {
        collectImageReferences(line.text, images);
        // Parsing every line would cost most of the scan; only a line naming the key can be a record.
        if (!countMessages && !line.text.includes('"compaction"')) continue;
        const message = parseLine(line, segment.path, quiet);
        if (message) messages++;
        if (message?.compaction && typeof message.compaction === "object") lastCompactionSegment = segment.index;
      }
    } catch (err) {
      throw storeError("read session archive", segment.path, err);
    }
  }
  return { segments, lastCompactionSegment, images, messages: countMessages ? messages : undefined };
}

// A gzip copy next to its still-present original is what a run killed just before the unlink
// leaves; readers ignore it, and when the original is not being compressed now, it goes.
async function removeShadowCopies(dir: string, plain: Segment[]): Promise<void> {
  let removed = false;
  for (const segment of plain) {
    const copy = join(dir, compressedName(segment.index));
    try {
      await unlink(copy);
      removed = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
  if (removed) await syncDir(dir);
}

// Resume compares meta.json's byte count with the archive's to notice a crash between a write and
// the meta update (and then recounts every message): keep them equal after compressing, with the
// message count (when the scan made one) for a meta.json that was already behind.
async function recordArchiveBytes(dir: string, messages: number | undefined): Promise<void> {
  const found = await readMeta(dir);
  if (found.state !== "ok") return;
  const bytes = (await listSegments(dir)).reduce((sum, s) => sum + s.size, 0);
  if (found.meta.bytes === bytes && (messages === undefined || found.meta.messages === messages)) return;
  await writeMeta(dir, { ...found.meta, bytes, ...(messages !== undefined ? { messages } : {}) });
}

/** The last write to a session without a readable meta.json: its newest segment's time. */
async function newestWrite(dir: string): Promise<number> {
  let newest = 0;
  for (const segment of await listSegments(dir)) newest = Math.max(newest, (await stat(segment.path)).mtimeMs);
  return newest || (await stat(dir)).mtimeMs;
}

// Renamed out of sessions/ first (one atomic step: listing and resume no longer see it), then
// removed; a run killed in between leaves it in the trash, which the next run empties.
async function deleteSession(home: string, dir: string, id: string): Promise<void> {
  const trash = join(home, TRASH);
  await mkdir(trash, { recursive: true, mode: 0o700 });
  const target = join(trash, `${id}.${process.pid}`);
  await rename(dir, target);
  await syncDir(sessionsRoot(home));
  await rm(target, { recursive: true, force: true });
}

/** Removes what killed runs left in the trash. */
export async function emptyTrash(home: string): Promise<void> {
  const trash = join(home, TRASH);
  for (const name of await readdir(trash).catch(() => [] as string[]))
    await rm(join(trash, name), { recursive: true, force: true });
}

/** Bytes of the session's files (the folder, its images, its sub-agents' transcripts), locks left out. */
async function folderBytes(dir: string): Promise<number> {
  let total = await transcriptBytes(dir);
  for (const folder of [dir, join(dir, IMAGES_FOLDER), join(dir, CHECKPOINTS_FOLDER)]) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      if (folder === dir && (name === LOCK_FILE || name.startsWith(`${LOCK_FILE}.`))) continue;
      const info = await stat(join(folder, name)).catch(() => undefined);
      if (info?.isFile()) total += info.size;
    }
  }
  return total;
}
