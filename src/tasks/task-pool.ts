// A sliding pool of worker threads for long tasks (sub-agents): at most `maxThreads` run at once and
// a queued task starts as soon as any slot frees (task-slots.ts). Each task gets a message port, a
// time limit and a heap cap (task-run.ts); Bun ignores worker resourceLimits, so the worker reports
// its own heap and is terminated past the cap.

import { errorMessage } from "../protocol/errors.ts";
import { runtime } from "../runtime/runtime.ts";
import { INTERRUPTED, TaskRun } from "./task-run.ts";
import { TaskSlots } from "./task-slots.ts";
import type { TaskEnd, TaskPool, TaskRunOptions } from "./task-types.ts";

export type { TaskEnd, TaskFailure, TaskPool, TaskRunOptions } from "./task-types.ts";

type TransferList = NonNullable<Parameters<import("tinypool").default["run"]>[1]>["transferList"];

export interface TaskPoolOptions {
  /** Worker entry file (see worker-file.ts). */
  filename: string;
  maxThreads: number;
  timeoutMs: number;
  heapCapBytes: number;
  /** Between asking a worker to stop and terminating it. */
  stopGraceMs?: number;
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
  const limits = {
    timeoutMs: options.timeoutMs,
    heapCapBytes: options.heapCapBytes,
    graceMs: options.stopGraceMs ?? 500,
  };
  const slots = new TaskSlots(options.maxThreads);
  let now = 0;
  let max = 0;
  const onStarted = () => {
    now++;
    max = Math.max(max, now);
  };

  // Warm-ups (warm()) not yet answered.
  const warming = new Set<Promise<unknown>>();

  async function run<I extends object, O>(input: I, opts: TaskRunOptions): Promise<TaskEnd<O>> {
    const task = new TaskRun(limits, opts, onStarted);
    const payload = { ...input, port: task.channel.port2 };
    if (!(await slots.acquire(task.kill.signal))) {
      task.dispose();
      return task.ended ?? INTERRUPTED;
    }
    try {
      // A task that found its thread still answering a warm-up would start another thread.
      if (warming.size) await Promise.all(warming);
      // The global MessageChannel's port is the class node:worker_threads names, under another type.
      const transferList = [task.channel.port2] as unknown as TransferList;
      const value = (await pool.run(payload, { signal: task.kill.signal, transferList })) as O;
      if (!task.ended) await task.drained();
      return task.ended ?? { ok: true, value };
    } catch (err) {
      return task.ended ?? { ok: false, reason: "crashed", message: errorMessage(err) };
    } finally {
      task.dispose();
      if (task.started) now--;
      slots.release();
    }
  }

  // Tinypool starts a thread for a task that finds no ready thread idle. With no warm-up waiting,
  // the threads there are ready: `want` warm-ups given in one go fill the idle ones and start the
  // rest. While warm-ups wait (threads still starting), each new one starts a thread, so only the
  // missing ones are given. Enough threads: nothing to do (a thread that ended idle is missing
  // again at the next call).
  function warm(count: number, input: object): void {
    const want = Math.min(count, options.maxThreads);
    const threads = pool.threads.length;
    if (threads >= want) return;
    const give = warming.size === 0 ? want : want - threads;
    for (let i = 0; i < give; i++) {
      const warmUp: Promise<unknown> = pool
        .run(input)
        .catch(() => {})
        .finally(() => warming.delete(warmUp));
      warming.add(warmUp);
    }
  }

  return { run, inFlight: () => ({ now, max }), warm, destroy: () => pool.destroy() };
}
