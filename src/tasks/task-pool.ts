// A sliding pool of worker threads for long tasks (sub-agents): at most `maxThreads` run at once and
// a queued task starts as soon as any slot frees. Each task gets a message port, a time limit and a
// heap cap; Bun ignores worker resourceLimits, so the worker reports its own heap and is terminated
// past the cap.

import * as z from "zod/mini";
import { errorMessage } from "../protocol/errors.ts";
import { issuePhrases } from "../protocol/schema-issues.ts";
import { runtime } from "../runtime/runtime.ts";

export interface TaskPoolOptions {
  /** Worker entry file (see worker-file.ts). */
  filename: string;
  maxThreads: number;
  timeoutMs: number;
  heapCapBytes: number;
  /** Between asking a worker to stop and terminating it. */
  stopGraceMs?: number;
}

/**
 * A worker's result travels on tinypool's own channel and its messages on the task's port, so the
 * result can arrive first: a worker posts `{t: "started"}` first and `{t: "done"}` last, and
 * `run()` resolves only once that has come (or after DRAIN_MS), so no late message is dropped.
 */
const DRAIN_MS = 2000;

/** The messages the pool itself reads; every other message goes to the task's `onMessage`. */
const poolSchemas = () => ({
  started: z.object({ t: z.literal("started") }),
  done: z.object({ t: z.literal("done") }),
  heap: z.object({ t: z.literal("heap"), bytes: z.number().check(z.nonnegative()) }),
});
type PoolSchemas = ReturnType<typeof poolSchemas>;
type PoolMessage = { [K in keyof PoolSchemas]: z.infer<PoolSchemas[K]> }[keyof PoolSchemas];
// Built on first use: a run that starts no task never pays for them.
let built: PoolSchemas | undefined;

/** A pool message checked, another message as it came, or why it is malformed. */
function poolMessage(value: unknown): { pool: PoolMessage } | { other: unknown } | { malformed: string } {
  const t = (value as { t?: unknown } | null)?.t;
  const all = (built ??= poolSchemas());
  const schema = typeof t === "string" && Object.hasOwn(all, t) ? all[t as keyof PoolSchemas] : undefined;
  if (!schema) return { other: value };
  const parsed = z.safeParse(schema, value);
  return parsed.success ? { pool: parsed.data } : { malformed: issuePhrases(parsed.error.issues, value).join("; ") };
}

export type TaskEnd<O> =
  | { ok: true; value: O }
  | { ok: false; reason: "timeout" | "out_of_memory" | "interrupted" | "crashed"; message: string };

export interface TaskRunOptions {
  signal: AbortSignal;
  /**
   * Messages from the worker (not yet checked: parse them), with a way to answer on the same port.
   * A throw ends the task as crashed, with the error's message.
   */
  // biome-ignore lint/suspicious/noExplicitAny: unchecked on arrival; each receiver parses it
  onMessage(message: any, reply: (message: unknown) => void): void;
  /** The worker began (left the queue). */
  onStart?(): void;
}

export interface TaskPool {
  /** Runs one task; never throws: every way a task can end is a TaskEnd. */
  run<I extends object, O>(input: I, opts: TaskRunOptions): Promise<TaskEnd<O>>;
  /** How many tasks are running in threads right now, and the most ever seen. */
  inFlight(): { now: number; max: number };
  destroy(): Promise<void>;
}

export async function createTaskPool(options: TaskPoolOptions): Promise<TaskPool> {
  const { default: Tinypool } = await import("tinypool");
  const pool = new Tinypool({
    filename: options.filename,
    minThreads: 0,
    maxThreads: options.maxThreads,
    idleTimeout: 2000,
    useAtomics: runtime.threadPoolAtomics,
  });
  const grace = options.stopGraceMs ?? 500;
  let now = 0;
  let max = 0;
  // Our own slots rather than tinypool's queue: after a terminated worker (timeout, heap cap)
  // tinypool with minThreads 0 starts no new thread for the tasks it queued, so they would hang.
  let busy = 0;
  const waiting: Array<() => void> = [];
  const acquire = (signal: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      if (busy < options.maxThreads) {
        busy++;
        return resolve(true);
      }
      const go = () => {
        signal.removeEventListener("abort", drop);
        busy++;
        resolve(true);
      };
      const drop = () => {
        waiting.splice(waiting.indexOf(go), 1);
        resolve(false);
      };
      waiting.push(go);
      signal.addEventListener("abort", drop, { once: true });
    });
  const release = () => {
    busy--;
    waiting.shift()?.();
  };

  return {
    async run<I extends object, O>(input: I, opts: TaskRunOptions): Promise<TaskEnd<O>> {
      // The global MessageChannel (the same class node:worker_threads exports, in Bun, Deno and
      // Node): importing node:worker_threads would cost every session start ~0.3 ms.
      const channel = new MessageChannel();
      const kill = new AbortController();
      let ended: Exclude<TaskEnd<O>, { ok: true }> | undefined;
      let started = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      let doneSeen = false;
      let onDone: (() => void) | undefined;
      const drained = () =>
        new Promise<void>((resolve) => {
          if (doneSeen) return resolve();
          const fallback = setTimeout(resolve, DRAIN_MS);
          onDone = () => {
            clearTimeout(fallback);
            resolve();
          };
        });
      const reply = (message: unknown) => {
        try {
          channel.port1.postMessage(message);
        } catch {
          // The worker is gone; nothing is waiting for the answer.
        }
      };
      const stop = (reason: NonNullable<typeof ended>) => {
        if (ended) return;
        ended = reason;
        kill.abort();
      };
      const start = () => {
        if (started) return;
        started = true;
        now++;
        max = Math.max(max, now);
        opts.onStart?.();
        // The limit counts from the start, not from the queue.
        timer = setTimeout(
          () => stop({ ok: false, reason: "timeout", message: `timed out after ${options.timeoutMs} ms` }),
          options.timeoutMs,
        );
      };
      // A worker is code of ours, but a message it sends is still checked: a malformed one ends
      // that task with an error, never the session.
      const malformed = (why: string) =>
        stop({ ok: false, reason: "crashed", message: `sent a malformed message: ${why}` });
      channel.port1.on("message", (message: unknown) => {
        const read = poolMessage(message);
        if ("malformed" in read) return malformed(read.malformed);
        if ("other" in read) {
          try {
            return opts.onMessage(read.other, reply);
          } catch (err) {
            return malformed(errorMessage(err));
          }
        }
        const m = read.pool;
        if (m.t === "started") return start();
        if (m.t === "done") {
          doneSeen = true;
          return onDone?.();
        }
        if (m.bytes > options.heapCapBytes) {
          const mb = (n: number) => Math.round(n / 1048576);
          stop({
            ok: false,
            reason: "out_of_memory",
            message: `out of memory: its heap reached ${mb(m.bytes)} MB, over the ${mb(options.heapCapBytes)} MB cap`,
          });
        }
      });
      const onAbort = () => {
        if (!started) return stop({ ok: false, reason: "interrupted", message: "interrupted" });
        // A running sub-agent is asked to stop first, so it can save its transcript; a worker that
        // does not stop within the grace period is terminated.
        reply({ t: "abort" });
        graceTimer = setTimeout(() => stop({ ok: false, reason: "interrupted", message: "interrupted" }), grace);
      };
      if (opts.signal.aborted) onAbort();
      else opts.signal.addEventListener("abort", onAbort, { once: true });

      const payload = { ...input, port: channel.port2 };
      if (!(await acquire(kill.signal))) {
        opts.signal.removeEventListener("abort", onAbort);
        channel.port1.close();
        return ended ?? { ok: false, reason: "interrupted", message: "interrupted" };
      }
      try {
        const value = (await pool.run(payload, { signal: kill.signal, transferList: [channel.port2] as any })) as O;
        if (!ended) await drained();
        return ended ?? { ok: true, value };
      } catch (err) {
        return ended ?? { ok: false, reason: "crashed", message: errorMessage(err) };
      } finally {
        clearTimeout(timer);
        clearTimeout(graceTimer);
        opts.signal.removeEventListener("abort", onAbort);
        if (started) now--;
        channel.port1.close();
        release();
      }
    },
    inFlight: () => ({ now, max }),
    destroy: () => pool.destroy(),
  };
}
