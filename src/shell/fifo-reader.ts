// Reads one command's output from its named pipe. Background jobs the command left behind may
// keep the pipe open for hours, so the end of the command's output is never "the pipe closed":
// once the shell reports the command done, a random sentinel is written into the pipe, and
// everything before it is the command's. After it, the pipe is drained and discarded until its
// last writer exits, so such a job neither blocks nor dies of SIGPIPE, nor reaches later output.

import { closeSync, constants, openSync, unlinkSync, writeSync } from "node:fs";

const SENTINEL_BYTES = 16;

export class FifoReader {
  private readonly rfd: number;
  private wfd: number | null;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private sentinel: Uint8Array | null = null;
  /** Bytes held back because they might be the start of the sentinel. */
  private carry: Uint8Array = new Uint8Array(0);
  private collecting = true;
  private done!: () => void;
  private readonly finished = new Promise<void>((resolve) => (this.done = resolve));
  /** Resolves when the pipe has no writer left (or reading was abandoned) and its fds are closed. */
  readonly closed: Promise<void>;

  constructor(
    private readonly path: string,
    private readonly onData: (bytes: Uint8Array) => void,
  ) {
    // Non-blocking open of the read end returns at once; our own write end keeps the pipe from
    // reporting end-of-file before the shell has opened it.
    this.rfd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    this.wfd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    this.reader = Bun.file(this.rfd).stream().getReader();
    this.closed = this.pump();
  }

  /**
   * Call once the command has ended (its writes are all in the pipe). Resolves when every byte
   * written before now has been passed to onData.
   */
  finish(): Promise<void> {
    if (this.sentinel === null && this.collecting) {
      this.sentinel = crypto.getRandomValues(new Uint8Array(SENTINEL_BYTES));
      this.writeSentinel();
    }
    return this.finished;
  }

  /** Stops reading now (pool shutdown); output not yet read is lost. */
  abandon(): void {
    this.stopCollecting();
    this.reader.cancel().catch(() => {});
  }

  /** The path is only needed until the shell has opened it; open ends keep working without it. */
  unlink(): void {
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }

  private writeSentinel(): void {
    if (this.wfd === null) return;
    try {
      writeSync(this.wfd, this.sentinel!);
    } catch (err) {
      // The pipe is full: the reader is draining it, so try again shortly.
      if ((err as NodeJS.ErrnoException).code === "EAGAIN") setTimeout(() => this.writeSentinel(), 1);
      else this.stopCollecting();
    }
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await this.reader.read();
        if (done) break;
        if (this.collecting) this.collect(value);
      }
    } catch {
      // A read error ends the pipe like end-of-file would.
    }
    this.stopCollecting();
    closeQuietly(this.rfd);
  }

  private collect(bytes: Uint8Array): void {
    if (this.sentinel === null) {
      this.onData(bytes);
      return;
    }
    const data = this.carry.length ? concat(this.carry, bytes) : bytes;
    const at = indexOf(data, this.sentinel);
    if (at !== -1) {
      if (at > 0) this.onData(data.subarray(0, at));
      this.carry = new Uint8Array(0);
      this.stopCollecting();
      return;
    }
    const keep = Math.min(data.length, SENTINEL_BYTES - 1);
    if (data.length > keep) this.onData(data.subarray(0, data.length - keep));
    this.carry = data.slice(data.length - keep);
  }

  private stopCollecting(): void {
    if (!this.collecting) return;
    this.collecting = false;
    if (this.wfd !== null) closeQuietly(this.wfd);
    this.wfd = null;
    this.done();
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(needle);
}
