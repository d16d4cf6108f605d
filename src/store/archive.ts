// The append-only JSONL archive of a session: one message per line, in segment files
// (`messages.jsonl`, `messages.1.jsonl`, ...) that roll over past `rotateBytes`. Writes are queued
// and go out in batches; reads stream line by line and skip damaged lines with a warning.
// A write reaches the page cache, which outlives a killed process; `sync()` (fdatasync) is what
// outlives a power cut, and the message store calls it on its own slower schedule.
// `synapse compact` may replace an old segment by its gzip copy (`messages.1.jsonl.gz`): reads
// decompress it on the fly, and the writer only ever appends to a plain last segment.

import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import type { Message } from "../protocol/message.ts";
import { storeError } from "./errors.ts";
import { readLines } from "./line-reader.ts";
import { parseLine } from "./message-line.ts";
import { RingBuffer } from "./ring-buffer.ts";
import { applyRewinds, RewindFilter, rewindTargets } from "./rewind-record.ts";
import { type ArchiveSnapshot, listSegments, type Segment, segmentLines, segmentName } from "./segments.ts";
import { itemAt } from "../text/checked-index.ts";

// Where they were first: the store's other modules and the tests import them from here.
export {
  type ArchiveSnapshot,
  compressedName,
  listSegments,
  type Segment,
  segmentLines,
  segmentName,
} from "./segments.ts";

export interface ArchiveOptions {
  dir: string;
  rotateBytes: number;
  onWarning: (message: string) => void;
}

export interface ArchivedMessage {
  message: Message;
  /** Bytes of its JSONL line, the size the in-memory window accounts for. */
  bytes: number;
}

interface Queued {
  text: string;
  bytes: number;
}

// One write call stays below this, so a long queue never becomes one giant string.
const MAX_WRITE_BYTES = 4 * 1024 * 1024;

export class Archive {
  private queue: Queued[] = [];
  private queueBytes = 0;
  // Set when the file ends mid-line (a crash mid-write): the next write starts on a fresh line so
  // the torn fragment stays a line of its own instead of swallowing the next message.
  private needsNewline = false;
  private chain: Promise<unknown> = Promise.resolve();
  private written = 0;
  // Segments written since the last sync(): usually the last one, two across a rotation.
  private unsynced = new Set<string>();

  private constructor(
    private readonly options: ArchiveOptions,
    private readonly segments: Segment[],
  ) {}

  static async open(options: ArchiveOptions): Promise<Archive> {
    const segments = await listSegments(options.dir);
    if (segments.length === 0) segments.push({ index: 0, path: join(options.dir, segmentName(0)), size: 0 });
    // A compressed segment is never appended to, so a new plain one follows it.
    const newest = itemAt(segments, segments.length - 1);
    if (newest.compressed)
      segments.push({ index: newest.index + 1, path: join(options.dir, segmentName(newest.index + 1)), size: 0 });
    const archive = new Archive(options, segments);
    const last = itemAt(segments, segments.length - 1);
    if (last.size > 0) archive.needsNewline = (await lastByte(last.path, last.size)) !== 0x0a;
    return archive;
  }

  /** Total bytes of every segment. */
  get bytes(): number {
    return this.segments.reduce((sum, s) => sum + s.size, 0);
  }

  get queuedCount(): number {
    return this.queue.length;
  }

  get queuedBytes(): number {
    return this.queueBytes;
  }

  /** Messages this archive has written to disk since it was opened. */
  get writtenCount(): number {
    return this.written;
  }

  segmentList(): Segment[] {
    return this.segments.map((s) => ({ ...s }));
  }

  enqueue(text: string, bytes: number): void {
    this.queue.push({ text, bytes });
    this.queueBytes += bytes;
  }

  /** Whether lines were written since the last sync(). */
  get syncDue(): boolean {
    return this.unsynced.size > 0;
  }

  /**
   * Writes everything queued when it runs; calls are serialized. On failure the unwritten lines go
   * back to the front of the queue and a StoreError is thrown. Written lines survive a killed
   * process (they are in the page cache) but not a power cut until sync().
   */
  write(): Promise<number> {
    const run = this.chain.then(() => this.writeQueued());
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** fdatasync of every segment written since the last sync; serialized with write(). */
  sync(): Promise<void> {
    const run = this.chain.then(() => this.syncWritten());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async syncWritten(): Promise<void> {
    for (const path of [...this.unsynced]) {
      let handle: FileHandle | undefined;
      try {
        handle = await open(path, "r");
        await handle.datasync();
      } catch (err) {
        throw storeError("sync session archive", path, err);
      } finally {
        await handle?.close().catch(() => undefined);
      }
      this.unsynced.delete(path);
    }
  }

  private async writeQueued(): Promise<number> {
    const batch = this.queue;
    this.queue = [];
    this.queueBytes = 0;
    let done = 0;
    try {
      while (done < batch.length) {
        let segment = itemAt(this.segments, this.segments.length - 1);
        if (segment.size > 0 && segment.size + itemAt(batch, done).bytes + 1 > this.options.rotateBytes) {
          segment = { index: segment.index + 1, path: join(this.options.dir, segmentName(segment.index + 1)), size: 0 };
          this.segments.push(segment);
        }
        let end = done;
        let bytes = 0;
        while (
          end < batch.length &&
          (end === done ||
            (segment.size + bytes + itemAt(batch, end).bytes + 1 <= this.options.rotateBytes &&
              bytes + itemAt(batch, end).bytes < MAX_WRITE_BYTES))
        ) {
          bytes += itemAt(batch, end).bytes + 1;
          end++;
        }
        await this.append(segment, batch, done, end);
        this.written += end - done;
        done = end;
      }
    } catch (err) {
      const rest = batch.slice(done);
      this.queue = rest.concat(this.queue);
      this.queueBytes = this.queue.reduce((sum, q) => sum + q.bytes, 0);
      throw err;
    }
    return batch.length;
  }

  private async append(segment: Segment, batch: Queued[], from: number, to: number): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await open(segment.path, "a", 0o600);
    } catch (err) {
      throw storeError("open session archive", segment.path, err);
    }
    try {
      // The file is the truth: after a failed write or an outside edit, pick up its real size.
      const info = await handle.stat();
      if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
      if (info.size !== segment.size) {
        this.needsNewline = info.size > 0 && (await lastByte(segment.path, info.size)) !== 0x0a;
        segment.size = info.size;
      }
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw storeError("open session archive", segment.path, err);
    }
    let text = this.needsNewline ? "\n" : "";
    for (let i = from; i < to; i++) text += `${itemAt(batch, i).text}\n`;
    const data = Buffer.from(text);
    try {
      for (let offset = 0; offset < data.length; ) {
        const { bytesWritten } = await handle.write(data, offset, data.length - offset, null);
        offset += bytesWritten;
      }
      // No fdatasync here: it was most of a turn's store time, and a killed process loses nothing
      // the page cache holds. sync() covers power cuts, batched.
    } catch (err) {
      await this.undoPartialWrite(handle, segment);
      throw storeError("write session archive", segment.path, err);
    } finally {
      await handle.close().catch(() => undefined);
    }
    segment.size += data.length;
    this.needsNewline = false;
    this.unsynced.add(segment.path);
  }

  // A write that failed half way (disk full) may have left part of a line; cut it off so the retry
  // appends cleanly. If even that fails, start the retry on a fresh line.
  private async undoPartialWrite(handle: Awaited<ReturnType<typeof open>>, segment: Segment): Promise<void> {
    try {
      await handle.truncate(segment.size);
    } catch {
      const size = await handle.stat().then(
        (s) => s.size,
        () => segment.size,
      );
      if (size !== segment.size) this.needsNewline = true;
      segment.size = size;
    }
  }

  /** What is on disk now plus what is queued: read() streams exactly this, however writes go on. */
  snapshot(): ArchiveSnapshot {
    return { segments: this.segmentList(), queued: this.queue.map((q) => q.text) };
  }

  /**
   * The conversation in the snapshot, oldest first: segments streamed line by line, then the
   * queue, with rewinds applied (rewind-record.ts; a first pass finds the records).
   */
  async *read(snapshot = this.snapshot(), warn = this.options.onWarning): AsyncGenerator<ArchivedMessage> {
    const filter = new RewindFilter(await rewindTargets(snapshot));
    for await (const item of this.messageLines(snapshot, warn)) if (filter.keep(item.message)) yield item;
  }

  /** Every message line of the snapshot, rewind records and rewound messages included. */
  private async *messageLines(
    snapshot: ArchiveSnapshot,
    warn: (message: string) => void,
  ): AsyncGenerator<ArchivedMessage> {
    for (const segment of snapshot.segments) {
      if (segment.size === 0) continue;
      for await (const line of segmentLines(segment, warn)) {
        const message = parseLine(line, segment.path, warn);
        if (message) yield { message, bytes: Buffer.byteLength(line.text) };
      }
    }
    for (const text of snapshot.queued) yield { message: JSON.parse(text) as Message, bytes: Buffer.byteLength(text) };
  }

  /**
   * The newest messages within the given bounds, oldest first. Segments are read from the last
   * backwards, each streamed through a bounded window, so memory stays within the bounds.
   */
  async tail(maxCount: number, maxBytes: number): Promise<ArchivedMessage[]> {
    const window = new RingBuffer<ArchivedMessage>({
      maxCount,
      maxBytes,
      sizeOf: (a) => a.bytes,
      keyOf: (a) => a.message.id,
    });
    let collected: ArchivedMessage[] = [];
    let count = 0;
    let bytes = 0;
    const segments = this.segmentList();
    for (let i = segments.length - 1; i >= 0 && count < maxCount && bytes < maxBytes; i--) {
      const segment = itemAt(segments, i);
      if (segment.size === 0) continue;
      const part = new RingBuffer<ArchivedMessage>({
        maxCount: maxCount - count,
        maxBytes: maxBytes - bytes,
        sizeOf: (a) => a.bytes,
        keyOf: (a) => a.message.id,
      });
      let full = false;
      for await (const line of segmentLines(segment, this.options.onWarning)) {
        const message = parseLine(line, segment.path, this.options.onWarning);
        if (message && part.push({ message, bytes: Buffer.byteLength(line.text) }).length > 0) full = true;
      }
      collected = part.items().concat(collected);
      count += part.count;
      bytes += part.bytes;
      if (full) break;
    }
    for (const item of applyRewinds(collected, (a) => a.message)) window.push(item);
    return window.items();
  }

  /**
   * The readable messages on disk, given that the archive's first `known.bytes` held
   * `known.messages` (meta.json's last figures): when the archive has only grown since, just what
   * follows is read, so a resume after kill -9 reads the last second's lines, not the whole
   * session. Anything else (shrunk, compacted at that point, not a line boundary) counts it all.
   */
  async countAfter(known: { bytes: number; messages: number }): Promise<number> {
    const segments = this.segmentList();
    let offset = known.bytes;
    let i = 0;
    while (i < segments.length && offset >= itemAt(segments, i).size && offset > 0)
      offset -= itemAt(segments, i++).size;
    if (i === segments.length) return offset === 0 ? known.messages : this.count();
    const first = itemAt(segments, i);
    if (offset > 0 && (first.compressed || (await lastByte(first.path, offset)) !== 0x0a)) return this.count();
    let n = known.messages;
    const quiet = () => undefined;
    for (const [k, segment] of segments.slice(i).entries()) {
      if (segment.size === 0) continue;
      const lines =
        k === 0 && offset > 0 ? readLines(segment.path, segment.size, offset) : segmentLines(segment, quiet);
      for await (const line of lines) if (parseLine(line, segment.path, quiet)) n++;
    }
    return n;
  }

  /** Counts the readable messages on disk (used to repair meta.json after a crash). */
  async count(): Promise<number> {
    let n = 0;
    for await (const _ of this.messageLines({ segments: this.segmentList(), queued: [] }, () => undefined)) n++;
    return n;
  }
}

async function lastByte(path: string, size: number): Promise<number> {
  const handle = await open(path, "r");
  try {
    const buf = Buffer.alloc(1);
    await handle.read(buf, 0, 1, size - 1);
    return itemAt(buf, 0);
  } finally {
    await handle.close();
  }
}
