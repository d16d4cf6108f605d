// One task's life on the pool's side: its message port, its time limit (counted from the worker's
// start, not from the queue), its heap cap, the interrupt (ask, then terminate after a grace
// period), and the wait for the worker's last message. The first way it ends is the one reported.

import { assertNever } from "../protocol/assert-never.ts";
import { errorMessage } from "../protocol/errors.ts";
import { type PoolMessage, poolMessage } from "./pool-messages.ts";
import type { TaskFailure, TaskRunOptions } from "./task-types.ts";

/**
 * A worker's result travels on tinypool's own channel and its messages on the task's port, so the
 * result can arrive first: a worker posts `{t: "started"}` first and `{t: "done"}` last, and a run
 * resolves only once that has come (or after DRAIN_MS), so no late message is dropped.
 */
const DRAIN_MS = 2000;

export interface TaskLimits {
  timeoutMs: number;
  heapCapBytes: number;
  /** Between asking a worker to stop and terminating it. */
  graceMs: number;
}

export const INTERRUPTED: TaskFailure = { ok: false, reason: "interrupted", message: "interrupted" };
const mb = (n: number) => Math.round(n / 1048576);

export class TaskRun {
  // The global MessageChannel (the same class node:worker_threads exports, in Bun, Deno and
  // Node): importing node:worker_threads would cost every session start ~0.3 ms.
  readonly channel = new MessageChannel();
  /** Fires when the run has ended early: tinypool then terminates the worker. */
  readonly kill = new AbortController();
  /** How the run ended early, if it did (the first reason wins). */
  ended: TaskFailure | undefined;
  started = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private doneSeen = false;
  private onDone: (() => void) | undefined;

  /** `onStarted`: the worker began (the pool counts it in flight). */
  constructor(
    private readonly limits: TaskLimits,
    private readonly opts: TaskRunOptions,
    private readonly onStarted: () => void,
  ) {
    this.channel.port1.on("message", (message: unknown) => this.receive(message));
    if (opts.signal.aborted) this.onAbort();
    else opts.signal.addEventListener("abort", this.onAbort, { once: true });
  }

  readonly reply = (message: unknown): void => {
    try {
      this.channel.port1.postMessage(message);
    } catch {
      // The worker is gone; nothing is waiting for the answer.
    }
  };

  private stop(reason: TaskFailure): void {
    if (this.ended) return;
    this.ended = reason;
    this.kill.abort();
  }

  private readonly onAbort = (): void => {
    if (!this.started) {
      this.stop(INTERRUPTED);
      return;
    }
    // A running sub-agent is asked to stop first, so it can save its transcript; a worker that
    // does not stop within the grace period is terminated.
    this.reply({ t: "abort" });
    this.graceTimer = setTimeout(() => this.stop(INTERRUPTED), this.limits.graceMs);
  };

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.onStarted();
    this.opts.onStart?.();
    const { timeoutMs } = this.limits;
    this.timer = setTimeout(
      () => this.stop({ ok: false, reason: "timeout", message: `timed out after ${timeoutMs} ms` }),
      timeoutMs,
    );
  }

  /** A malformed message ends this task with an error, never the session. */
  private malformed(why: string): void {
    this.stop({ ok: false, reason: "crashed", message: `sent a malformed message: ${why}` });
  }

  private receive(message: unknown): void {
    const read = poolMessage(message);
    if ("malformed" in read) this.malformed(read.malformed);
    else if ("other" in read) {
      try {
        this.opts.onMessage(read.other, this.reply);
      } catch (err) {
        this.malformed(errorMessage(err));
      }
    } else this.poolMessage(read.pool);
  }

  private poolMessage(m: PoolMessage): void {
    switch (m.t) {
      case "started":
        this.start();
        return;
      case "done":
        this.doneSeen = true;
        this.onDone?.();
        return;
      case "heap": {
        const cap = this.limits.heapCapBytes;
        if (m.bytes <= cap) return;
        const message = `out of memory: its heap reached ${mb(m.bytes)} MB, over the ${mb(cap)} MB cap`;
        this.stop({ ok: false, reason: "out_of_memory", message });
        return;
      }
      default:
        assertNever(m, "pool message");
    }
  }

  /** Resolves once the worker's `done` has come, or after DRAIN_MS. */
  drained(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.doneSeen) return resolve();
      const fallback = setTimeout(resolve, DRAIN_MS);
      this.onDone = () => {
        clearTimeout(fallback);
        resolve();
      };
    });
  }

  /** Lets go of everything the run holds: its timers, the caller's signal, its port. */
  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.graceTimer);
    this.opts.signal.removeEventListener("abort", this.onAbort);
    this.channel.port1.close();
  }
}
