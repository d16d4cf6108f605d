// A session's message store: the in-memory window (ring buffer, indexed by id) in front of the
// JSONL archive, which holds every message. Appends are queued and written in debounced batches;
// flush() writes everything queued; a write failure keeps the queue for the next attempt.
// Durability has two tiers: what flush() wrote survives kill -9 (the page cache outlives the
// process); fdatasync and meta.json's counts follow within DURABLE_SYNC_MS, off the turn's path,
// and at close. A session killed in between is recounted from its archive on resume.

import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { StoreConfig } from "../config/config.ts";
import type { ImageRef, Message } from "../protocol/message.ts";
import type { Archive } from "./archive.ts";
import { StoreError } from "./errors.ts";
import { ImageStore } from "./images.ts";
import type { SessionLock } from "./lock.ts";
import { titleFrom, writeMeta } from "./meta.ts";
import { RingBuffer } from "./ring-buffer.ts";
import { applyRewinds, rewindRecord } from "./rewind-record.ts";
import type { SessionMeta, SessionStore, StoreStats } from "./types.ts";

export interface MessageStoreParts {
  dir: string;
  config: StoreConfig;
  /** The session summary as found on disk (or fresh for a new session). */
  meta: SessionMeta;
  /** Whether meta.json exists yet: a session is written to disk with its first message. */
  metaOnDisk: boolean;
  /** meta.json is behind the archive (repaired after a crash) or the model changed. */
  metaDirty: boolean;
  archive: Archive;
  lock: SessionLock;
  /** The archive's tail, to refill the window of a resumed session. */
  initial: Array<{ message: Message; bytes: number }>;
  onWarning: (message: string) => void;
}

// Past this much queued data a write starts at once instead of waiting for the debounce.
const EAGER_FLUSH_BYTES = 4 * 1024 * 1024;
// How long written lines may wait for fdatasync (and meta.json for its counts): the most a power
// cut can lose. Per turn, the two fsyncs were ~1.5 ms of the client's time between turns.
export const DURABLE_SYNC_MS = 1000;

export class MessageStore implements SessionStore {
  readonly id: string;
  readonly dir: string;
  private readonly ring: RingBuffer<Message>;
  private readonly images: ImageStore;
  private readonly archive: Archive;
  private readonly lock: SessionLock;
  private readonly onWarning: (message: string) => void;
  private readonly flushMs: number;
  private readonly metaState: SessionMeta;
  private readonly baseCount: number;
  private metaOnDisk: boolean;
  private metaDirty: boolean;
  // meta.json's counts are behind what was written (it is rewritten with the next sync).
  private metaBehind = false;
  private windowCache: readonly Message[] | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private evicted = 0;
  private closed = false;
  private lastBackgroundError: string | undefined;

  constructor(parts: MessageStoreParts) {
    this.id = parts.meta.id;
    this.dir = parts.dir;
    this.metaState = { ...parts.meta };
    this.baseCount = parts.meta.messages;
    this.metaOnDisk = parts.metaOnDisk;
    this.metaDirty = parts.metaDirty;
    this.archive = parts.archive;
    this.lock = parts.lock;
    this.onWarning = parts.onWarning;
    this.flushMs = parts.config.flushMs;
    this.images = new ImageStore(join(parts.dir, "images"));
    this.ring = new RingBuffer<Message>({
      maxCount: parts.config.maxMessages,
      maxBytes: parts.config.maxBytes,
      sizeOf: (m) => Buffer.byteLength(JSON.stringify(m)),
      keyOf: (m) => m.id,
    });
    for (const { message, bytes } of parts.initial) this.ring.push(message, bytes);
  }

  append(message: Message): void {
    if (this.closed) throw new StoreError(`session ${this.id} is closed; cannot append message ${message.id}`);
    // Serialized once: the line is what gets archived and its length is the window's byte measure.
    const line = JSON.stringify(message);
    const bytes = Buffer.byteLength(line);
    this.evicted += this.ring.push(message, bytes).length;
    this.windowCache = undefined;
    this.archive.enqueue(line, bytes);
    if (!this.metaState.title) {
      const title = titleFrom(message);
      if (title) {
        this.metaState.title = title;
        this.metaDirty = true;
      }
    }
    this.schedule();
  }

  /**
   * `/rewind`: the conversation goes back to before message `to` (a prompt). A record in the
   * archive says so (rewind-record.ts), so resume sees the same; the window drops `to` and all
   * after it. `title`: the session's title from now on ("" lets the next prompt give it one).
   */
  rewind(to: string, title?: string): void {
    if (this.closed) throw new StoreError(`session ${this.id} is closed; cannot rewind it`);
    const record = rewindRecord(to);
    const line = JSON.stringify(record);
    this.archive.enqueue(line, Buffer.byteLength(line));
    const kept = applyRewinds([...this.ring.items(), record], (m) => m);
    this.ring.clear();
    for (const message of kept) this.ring.push(message);
    this.windowCache = undefined;
    if (title !== undefined) this.updateMeta({ title });
    this.schedule();
  }

  window(): readonly Message[] {
    // Frozen: callers share the cached array, so none of them may change it for the others.
    this.windowCache ??= Object.freeze(this.ring.items());
    return this.windowCache;
  }

  /** O(1) by id within the in-memory window; evicted messages are reached through readAll(). */
  get(id: string): Message | undefined {
    return this.ring.get(id);
  }

  windowBytes(): number {
    return this.ring.bytes;
  }

  flush(): Promise<void> {
    this.clearTimer();
    return this.serial(() => this.writeQueued());
  }

  async *readAll(): AsyncIterable<Message> {
    // Taken on the write chain, so no batch is half way between the queue and the disk.
    const snapshot = await this.serial(async () => {
      await this.writeQueued().catch((err) => this.warnBackground(err));
      return this.archive.snapshot();
    });
    for await (const { message } of this.archive.read(snapshot)) yield message;
  }

  saveImage(bytes: Uint8Array, mediaType: string): Promise<ImageRef> {
    return this.images.save(bytes, mediaType);
  }

  loadImage(ref: ImageRef): Promise<{ mediaType: string; base64: string }> {
    return this.images.load(ref);
  }

  updateMeta(patch: Partial<Pick<SessionMeta, "title" | "model">>): void {
    if (patch.title !== undefined) this.metaState.title = patch.title;
    if (patch.model !== undefined) this.metaState.model = patch.model;
    this.metaDirty = true;
    this.schedule();
  }

  shrink(keep: number): void {
    this.evicted += this.ring.shrink(keep).length;
    this.windowCache = undefined;
  }

  stats(): StoreStats {
    return { messages_archived: this.archive.writtenCount, messages_evicted: this.evicted };
  }

  /** The session summary as it stands (counts include what is on disk, not what is queued). */
  meta(): SessionMeta {
    return { ...this.metaState, messages: this.baseCount + this.archive.writtenCount, bytes: this.archive.bytes };
  }

  replaceInMemory(copies: ReadonlyMap<string, Message>): number {
    // The archive queue holds each message's line as serialized at append time, so a copy put in
    // memory here never changes what is (or will be) on disk.
    const freed = this.ring.update((message) => copies.get(message.id));
    this.windowCache = undefined;
    return freed;
  }

  messageCount(): number {
    return this.baseCount + this.archive.writtenCount + this.archive.queuedCount;
  }

  /** Whether the session stays on disk once closed: close() removes a new one that got no message. */
  get kept(): boolean {
    return this.metaOnDisk || this.messageCount() > 0;
  }

  /** Messages appended but not yet on disk. */
  get queued(): number {
    return this.archive.queuedCount;
  }

  /**
   * Writes what is queued, syncs it and meta.json, releases the lock and timers. A session that
   * never got a message leaves nothing behind.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.clearTimer();
    this.clearSyncTimer();
    let failure: unknown;
    try {
      await this.serial(async () => {
        await this.writeQueued();
        await this.syncWritten();
      });
    } catch (err) {
      failure = err;
    }
    try {
      if (failure === undefined && !this.metaOnDisk && this.archive.bytes === 0) {
        await rm(this.dir, { recursive: true, force: true });
      }
    } finally {
      this.lock.release();
      this.windowCache = undefined;
      this.ring.clear();
    }
    if (failure !== undefined) throw failure;
  }

  /**
   * For a forced exit only (a third signal, a crash): gives up the lock at once, without waiting
   * for writes. What the turns appended is already in the archive; a later run may take over.
   */
  releaseLockNow(): void {
    this.lock.release();
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async writeQueued(): Promise<void> {
    const hasMessages = this.archive.queuedCount > 0;
    if (!hasMessages && !this.metaDirty) return;
    if (!this.metaOnDisk) {
      if (!hasMessages) return;
      // meta.json first: a crash right after the archive write then still leaves a findable
      // session, whose counts are repaired from the archive on resume.
      await writeMeta(this.dir, this.meta(), false);
      this.metaOnDisk = true;
    }
    if (hasMessages) await this.archive.write();
    this.metaState.updated = Date.now();
    // A new title or model is written at once; counts and times wait for the next sync, so a
    // turn costs one append and no file replacement. Neither write is synced here (a new
    // session's first flush is on its first request's path, where two fsyncs were most of the
    // store's start): the sync, within DURABLE_SYNC_MS, writes meta.json again, synced.
    if (this.metaDirty) await this.writeMetaNow(false);
    this.scheduleSync();
    this.lastBackgroundError = undefined;
  }

  private async writeMetaNow(durable = true): Promise<void> {
    await writeMeta(this.dir, this.meta(), durable);
    this.metaDirty = false;
    this.metaBehind = !durable;
  }

  /** fdatasync of what was written, then meta.json with the counts it matches. */
  private async syncWritten(): Promise<void> {
    if (this.archive.syncDue) await this.archive.sync();
    if (this.metaOnDisk && (this.metaBehind || this.metaDirty)) await this.writeMetaNow();
  }

  private scheduleSync(): void {
    this.metaBehind = true;
    if (this.closed) return;
    this.syncTimer ??= setTimeout(() => {
      this.syncTimer = undefined;
      this.serial(() => this.syncWritten()).catch((err) => this.warnBackground(err));
    }, DURABLE_SYNC_MS);
  }

  private clearSyncTimer(): void {
    if (this.syncTimer !== undefined) clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
  }

  private schedule(): void {
    if (this.archive.queuedBytes >= EAGER_FLUSH_BYTES) {
      this.clearTimer();
      void this.flush().catch((err) => this.warnBackground(err));
      return;
    }
    // Throttled rather than reset on every append, so a steady stream still reaches the disk.
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((err) => this.warnBackground(err));
    }, this.flushMs);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  // A failed background write is reported once per distinct error; the next flush() rejects with it.
  private warnBackground(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    if (message === this.lastBackgroundError) return;
    this.lastBackgroundError = message;
    this.onWarning(`${message}; ${this.archive.queuedCount} message(s) kept in memory, will retry`);
  }
}
