// The named pipe a shell's commands write their output to, read without ever waiting for it to
// close: background jobs a command leaves behind may hold it open for hours.
//
// The shell reports a command's end on another channel, after the command's last write is in the
// pipe; the pipe is then read synchronously until it is empty. End-of-file at that point means no
// one else holds it, and the next command reuses it. Otherwise a background job still does: its
// pipe is handed to a drain that drops what the job writes until it exits (so the job neither
// blocks on a full pipe nor dies of SIGPIPE), and the shell takes a fresh pipe. Either way, a
// job's later output never reaches a later command.

import { closeSync, constants, openSync, readSync, unlink } from "node:fs";
import { runtime } from "../runtime/runtime.ts";

/** While a command runs, one turn reads at most this much, so timers (its timeout) still run. */
const MAX_BYTES_PER_TURN = 1 << 20;
/**
 * A pipe holds at most 1 MiB (Linux's unprivileged pipe-max-size), so at the end of a command no
 * more than this can still be the command's; anything beyond is a background job writing on.
 */
const MAX_BYTES_AT_END = 1 << 20;
/** Polling backs off to this while the command is quiet (nothing signals "data arrived"). */
const MAX_POLL_MS = 50;

/** Shared read buffer: each chunk is consumed before the next read. */
const chunk = Buffer.allocUnsafe(1 << 16);

export type PipeState = "clean" | "held";

export class OutputPipe {
  private readonly rfd: number;
  private onData: ((bytes: Uint8Array) => void) | null = null;
  private pollMs = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private immediate: ReturnType<typeof setImmediate> | null = null;
  private drain: { cancel(): Promise<void> } | null = null;
  private open = true;
  private resolveClosed!: () => void;
  /** Resolves once the pipe is closed (after its last writer left, or on abandon). */
  readonly closed = new Promise<void>((resolve) => (this.resolveClosed = resolve));

  constructor(readonly path: string) {
    // Non-blocking, so this returns at once and reads say "nothing yet" instead of waiting.
    // Before the shell opens its end, a read returns 0 (no writer): harmless while polling.
    this.rfd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  }

  /** Starts collecting a command's output; `onData` receives each chunk as it is read. */
  begin(onData: (bytes: Uint8Array) => void): void {
    this.onData = onData;
    this.pollMs = 0;
    this.schedule(false);
  }

  /**
   * Call once the command has ended. Passes the rest of its output to onData, synchronously, and
   * says whether the pipe can serve the next command ("clean") or a background job holds it.
   */
  finish(): PipeState {
    this.cancelPoll();
    const onData = this.onData;
    this.onData = null;
    let total = 0;
    for (;;) {
      const n = this.readOnce();
      if (n === 0) return "clean";
      if (n < 0) return "held";
      onData?.(chunk.subarray(0, n));
      total += n;
      if (total >= MAX_BYTES_AT_END) return "held";
    }
  }

  /** For a pipe a background job holds: drop its output until it exits, then close. */
  drainAndClose(): void {
    this.cancelPoll();
    this.unlink();
    const reader = runtime.fdStream(this.rfd).getReader();
    this.drain = reader;
    const pump = async () => {
      try {
        while (!(await reader.read()).done);
      } catch {
        // A read error ends the pipe like end-of-file.
      }
      this.closeNow();
    };
    pump();
  }

  /** Closes now; whatever is unread is lost (shutdown, or a shell that is gone). */
  abandon(): void {
    this.cancelPoll();
    this.unlink();
    if (this.drain) this.drain.cancel().catch(() => {});
    else this.closeNow();
  }

  private poll = (): void => {
    this.timer = null;
    this.immediate = null;
    if (!this.onData) return;
    let total = 0;
    for (;;) {
      const n = this.readOnce();
      if (n <= 0) break;
      this.onData(chunk.subarray(0, n));
      total += n;
      if (total >= MAX_BYTES_PER_TURN) break;
    }
    this.schedule(total > 0);
  };

  /** Output flowing: read again as soon as the event loop allows. Quiet: back off. */
  private schedule(flowing: boolean): void {
    this.pollMs = flowing ? 0 : Math.min(Math.max(1, this.pollMs * 2), MAX_POLL_MS);
    if (flowing) this.immediate = setImmediate(this.poll);
    else this.timer = setTimeout(this.poll, this.pollMs);
  }

  private cancelPoll(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }

  /** One read into `chunk`: bytes read, 0 when no writer is left, -1 when empty for now. */
  private readOnce(): number {
    if (!this.open) return 0;
    try {
      return readSync(this.rfd, chunk, 0, chunk.length, null);
    } catch (err) {
      // EAGAIN: empty for now. Anything else means the pipe is unusable: treat it as ended.
      return (err as NodeJS.ErrnoException).code === "EAGAIN" ? -1 : 0;
    }
  }

  private unlink(): void {
    // Off the main thread: nothing waits for it, and open ends keep working without the name.
    unlink(this.path, () => {});
  }

  private closeNow(): void {
    if (!this.open) return;
    this.open = false;
    try {
      closeSync(this.rfd);
    } catch {
      // already closed
    }
    this.resolveClosed();
  }
}
