// A tinypool of worker threads running one worker file; the sub-agent task pool builds on it.

import { workerFile } from "./worker-file.ts";
import { runtime } from "../runtime/runtime.ts";

export interface ThreadPool<I, O> {
  run(input: I, signal?: AbortSignal): Promise<O>;
  destroy(): Promise<void>;
}

export async function createThreadPool<I, O>(worker: string, maxThreads: number): Promise<ThreadPool<I, O>> {
  // Loaded on demand: most runs never start a thread.
  const { default: Tinypool } = await import("tinypool");
  const pool = new Tinypool({ filename: workerFile(worker), minThreads: 0, maxThreads, idleTimeout: 1000, useAtomics: runtime.threadPoolAtomics });
  return {
    run: (input, signal) => pool.run(input, { signal }) as Promise<O>,
    destroy: () => pool.destroy(),
  };
}
