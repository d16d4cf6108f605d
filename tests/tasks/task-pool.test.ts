// The sub-agent thread pool with real worker threads: sliding slots, time limit, heap cap, crashes,
// interrupts, and the task's message port.
import { afterEach, expect, test } from "bun:test";
import { resolve } from "node:path";
import { type TaskPool, createTaskPool } from "../../src/tasks/task-pool.ts";
import { pollUntil } from "../support/wait.ts";

const PROBE = resolve(import.meta.dir, "../support/workers/task-probe.ts");
let pool: TaskPool | undefined;
afterEach(async () => {
  await pool?.destroy();
  pool = undefined;
});

const make = (opts: Partial<Parameters<typeof createTaskPool>[0]> = {}) =>
  createTaskPool({ filename: PROBE, maxThreads: 2, timeoutMs: 60_000, heapCapBytes: 4096 * 1048576, ...opts }).then(
    (p) => (pool = p),
  );
const run = (p: TaskPool, input: object, signal = new AbortController().signal, onMessage = () => {}) =>
  p.run<object, any>(input, { signal, onMessage });

test("a queued task starts as soon as any slot frees, not when the whole wave is done", async () => {
  const p = await make({ maxThreads: 2 });
  const events: string[] = [];
  const signal = new AbortController().signal;
  // `slow` holds its slot until the test lets it go, which it does only once `queued` has ended.
  const slowStarted = Promise.withResolvers<(m: unknown) => void>();
  const slow = p.run<object, any>(
    { mode: "held" },
    { signal, onMessage: (m, reply) => m?.t === "holding" && slowStarted.resolve(reply) },
  );
  const release = await slowStarted.promise;
  const go = (name: string) =>
    p
      .run<object, any>(
        { mode: "sleep", ms: 0 },
        { signal, onMessage: () => {}, onStart: () => events.push(`${name} start`) },
      )
      .then((r) => {
        events.push(`${name} end`);
        return r;
      });
  // In waves, `queued` would wait for `slow`, which waits for `queued`: the deadline names that.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`queued did not run while slow held its slot: ${events.join(", ")}`)),
      15_000,
    );
  });
  const results = await Promise.race([Promise.all([go("fast"), go("queued")]), deadline]).finally(() =>
    clearTimeout(timer),
  );
  expect(results.every((r) => r.ok)).toBe(true);
  // Two slots, one held: `queued` waited for `fast`'s.
  expect(events.indexOf("queued start")).toBeGreaterThan(events.indexOf("fast start"));
  release({ t: "release" });
  expect(await slow).toEqual({ ok: true, value: { released: true } });
  expect(p.inFlight()).toEqual({ now: 0, max: 2 });
}, 20_000);

test("a worker that throws gives a crashed result, and its sibling is unaffected", async () => {
  const p = await make();
  const [bad, good] = await Promise.all([run(p, { mode: "throw" }), run(p, { mode: "sleep", ms: 50 })]);
  expect(bad).toMatchObject({ ok: false, reason: "crashed" });
  expect((bad as any).message).toContain("probe exploded");
  expect(good).toEqual({ ok: true, value: { slept: 50 } });
}, 20_000);

test("a task past its time limit is stopped and frees its slot", async () => {
  const p = await make({ maxThreads: 1, timeoutMs: 200 });
  const [late, next] = await Promise.all([run(p, { mode: "hang" }), run(p, { mode: "sleep", ms: 10 })]);
  expect(late).toMatchObject({ ok: false, reason: "timeout" });
  expect((late as any).message).toContain("200 ms");
  expect(next.ok).toBe(true);
}, 20_000);

test("a worker whose heap grows past the cap is terminated with an out-of-memory result", async () => {
  const p = await make({ heapCapBytes: 96 * 1048576 });
  const rssBefore = process.memoryUsage().rss;
  const [oom, sibling] = await Promise.all([run(p, { mode: "grow" }), run(p, { mode: "sleep", ms: 20 })]);
  expect(oom).toMatchObject({ ok: false, reason: "out_of_memory" });
  expect((oom as any).message).toMatch(/over the 96 MB cap/);
  expect(sibling.ok).toBe(true);
  // It was stopped near the cap, far from the 6 GB it would have grown to.
  expect(process.memoryUsage().rss - rssBefore).toBeLessThan(1024 * 1048576);
}, 20_000);

test("an interrupt asks a running worker to stop, terminates one that does not, and drops queued ones", async () => {
  const p = await make({ maxThreads: 2, stopGraceMs: 100 });
  const controller = new AbortController();
  const started: string[] = [];
  const go = (name: string, mode: string) =>
    p.run<object, any>({ mode }, { signal: controller.signal, onMessage: () => {}, onStart: () => started.push(name) });
  const runs = [go("stoppable", "hang-stoppable"), go("stubborn", "hang"), go("queued", "hang")];
  await pollUntil("two tasks to start", () => started.length >= 2, { seen: () => started });
  controller.abort();
  const [stoppable, stubborn, queued] = await Promise.all(runs);
  expect(stoppable).toEqual({ ok: true, value: { stopped: true } });
  expect(stubborn).toMatchObject({ ok: false, reason: "interrupted" });
  expect(queued).toMatchObject({ ok: false, reason: "interrupted" });
  expect(started).not.toContain("queued");
  expect(p.inFlight().now).toBe(0);
}, 20_000);

test("messages travel both ways on the task's port", async () => {
  const p = await make();
  const seen: unknown[] = [];
  const result = await run(p, { mode: "ask" }, new AbortController().signal, ((m: any, reply: (m: unknown) => void) => {
    seen.push(m);
    reply(m.n * 2);
  }) as any);
  expect(seen).toEqual([{ t: "question", n: 21 }]);
  expect(result).toEqual({ ok: true, value: { answer: 42 } });
}, 20_000);

test("every message a worker posted before returning reaches onMessage before run() resolves", async () => {
  const p = await make({ maxThreads: 3 });
  const burst = async () => {
    const seen: number[] = [];
    const end = await p.run<object, any>(
      { mode: "burst", ms: 300 },
      { signal: new AbortController().signal, onMessage: (m: any) => seen.push(m.i) },
    );
    return { end, seen: seen.length };
  };
  for (let round = 0; round < 5; round++) {
    const results = await Promise.all([burst(), burst(), burst()]);
    for (const r of results) expect(r).toEqual({ end: { ok: true, value: { posted: 300 } }, seen: 300 });
  }
}, 20_000);

test("a malformed message ends that task as crashed, and the pool runs the next one", async () => {
  const p = await make({ maxThreads: 1 });
  // A pool message (heap) the pool cannot read.
  const badHeap = await run(p, { mode: "bad-heap" });
  expect(badHeap).toMatchObject({ ok: false, reason: "crashed" });
  expect((badHeap as any).message).toContain('sent a malformed message: "bytes" must be a number');
  // A task message its receiver refuses (it throws), as the sub-agent launcher does.
  const refused = await run(p, { mode: "ask" }, new AbortController().signal, () => {
    throw new Error('a message from the worker "question": not one this side knows');
  });
  expect(refused).toMatchObject({ ok: false, reason: "crashed" });
  expect((refused as any).message).toContain("not one this side knows");
  expect(await run(p, { mode: "sleep", ms: 1 })).toEqual({ ok: true, value: { slept: 1 } });
}, 20_000);
