// TaskPool.warm with real worker threads: threads start before any task, as many as asked (never
// past the pool's size, idle ones counted), and warming again while they are there adds none.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type TaskPool, createTaskPool } from "../../src/tasks/task-pool.ts";
import { pollUntil } from "../support/wait.ts";

const PROBE = resolve(import.meta.dir, "../support/workers/task-probe.ts");
const WARM_UP = { warmUp: true };
/** Worker threads of this process (Bun names them "Worker"). */
const workerThreads = () =>
  readdirSync("/proc/self/task").filter((t) => {
    try {
      return readFileSync(`/proc/self/task/${t}/comm`, "utf8").trim() === "Worker";
    } catch {
      return false;
    }
  }).length;

let pool: TaskPool | undefined;
// Threads of pools an earlier test file destroyed may still be ending: counted from none.
beforeEach(() =>
  pollUntil("earlier tests' worker threads to end", () => workerThreads() === 0, { seen: workerThreads }),
);
afterEach(async () => {
  await pool?.destroy();
  pool = undefined;
});
const make = (maxThreads: number) =>
  createTaskPool({ filename: PROBE, maxThreads, timeoutMs: 60_000, heapCapBytes: 4096 * 1048576 }).then(
    (p) => (pool = p),
  );
const sleep = (p: TaskPool) =>
  p.run<object, { slept: number }>({ mode: "sleep", ms: 50 }, { signal: new AbortController().signal, onMessage() {} });

test("warm(2) starts two threads before any task, and warming again adds none", async () => {
  const before = workerThreads();
  const p = await make(4);
  expect(workerThreads()).toBe(before);
  p.warm(2, WARM_UP);
  await pollUntil("two warmed threads", () => workerThreads() === before + 2, { seen: workerThreads });
  // Warmed again (as the stream goes on): enough threads, no third starts.
  await Bun.sleep(100);
  p.warm(2, WARM_UP);
  await Bun.sleep(100);
  expect(workerThreads()).toBe(before + 2);
  // (Tinypool may have run both warm-ups on the thread that was ready first; one still starting when
  // a task comes makes it start another, so the count after the tasks is not asserted.)
  const ends = await Promise.all([sleep(p), sleep(p)]);
  expect(ends.every((e) => e.ok)).toBe(true);
}, 30_000);

test("a thread already idle counts: warm(2) then starts just one more", async () => {
  const before = workerThreads();
  const p = await make(4);
  expect((await sleep(p)).ok).toBe(true);
  expect(workerThreads()).toBe(before + 1);
  p.warm(2, WARM_UP);
  await pollUntil("the second thread", () => workerThreads() === before + 2, { seen: workerThreads });
  await Bun.sleep(200);
  expect(workerThreads()).toBe(before + 2);
}, 30_000);

test("never more threads than the pool's size", async () => {
  const before = workerThreads();
  const p = await make(2);
  p.warm(5, WARM_UP);
  await pollUntil("the pool's two threads", () => workerThreads() === before + 2, { seen: workerThreads });
  await Bun.sleep(200);
  expect(workerThreads()).toBe(before + 2);
}, 30_000);
