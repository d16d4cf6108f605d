// The executor's queue alone (executor/submission-queue.ts): one submission at a time, in order,
// each under its own AbortController; outcomes kept for the last few; closing cancels what it holds.
import { expect, test } from "bun:test";
import type { SubmissionOutcome } from "../../src/executor/executor-types.ts";
import { RECENT_OUTCOMES, type Submission, SubmissionQueue } from "../../src/executor/submission-queue.ts";

/** A queue whose work ends when the test says so (or when its submission is aborted). */
function harness() {
  const log: string[] = [];
  const release = new Map<string, () => void>();
  const settled: Array<{ id: string; pending: number }> = [];
  const execute = (s: Submission) =>
    new Promise<SubmissionOutcome>((resolve) => {
      log.push(`start ${s.id} ${s.text}`);
      const end = (status: SubmissionOutcome["status"]) => {
        log.push(`end ${s.id} ${status}`);
        resolve({ id: s.id, status, exit: false });
      };
      if (s.controller.signal.aborted) return end("interrupted");
      s.controller.signal.addEventListener("abort", () => end("interrupted"), { once: true });
      release.set(s.id, () => end("done"));
    });
  const queue: SubmissionQueue = new SubmissionQueue(execute, (o) =>
    settled.push({ id: o.id, pending: queue.pending() }),
  );
  const finish = async (id: string) => {
    while (!release.has(id)) await Bun.sleep(1);
    release.get(id)?.();
    return queue.waitFor(id);
  };
  return { queue, log, settled, finish };
}

test("one at a time, in the order given", async () => {
  const { queue, log, finish } = harness();
  const a = queue.submit({ text: "a" });
  const b = queue.submit({ text: "b" });
  expect([a, b]).toEqual(["s1", "s2"]);
  expect(queue.pending()).toBe(2);
  await finish(a);
  await finish(b);
  expect(log).toEqual(["start s1 a", "end s1 done", "start s2 b", "end s2 done"]);
  expect(queue.pending()).toBe(0);
  expect(queue.running()).toBeUndefined();
});

test("the outcome is heard once the queue has let go of the submission", async () => {
  const { queue, settled, finish } = harness();
  await finish(queue.submit({ text: "a" }));
  expect(settled).toEqual([{ id: "s1", pending: 0 }]);
});

test("interrupt() stops the running one; interrupt(id) skips a queued one", async () => {
  const { queue, log, finish } = harness();
  const a = queue.submit({ text: "a" });
  const b = queue.submit({ text: "b" });
  const c = queue.submit({ text: "c" });
  while (queue.running() !== a) await Bun.sleep(1);
  queue.interrupt(b);
  queue.interrupt();
  expect((await queue.waitFor(a)).status).toBe("interrupted");
  expect((await queue.waitFor(b)).status).toBe("interrupted");
  await finish(c);
  expect(log).toEqual([
    "start s1 a",
    "end s1 interrupted",
    "start s2 b",
    "end s2 interrupted",
    "start s3 c",
    "end s3 done",
  ]);
});

test(`only the last ${RECENT_OUTCOMES} outcomes are kept`, async () => {
  const { queue, finish } = harness();
  const ids: string[] = [];
  for (let i = 0; i <= RECENT_OUTCOMES; i++) {
    const id = queue.submit({ text: `${i}` });
    ids.push(id);
    await finish(id);
  }
  expect((await queue.waitFor(ids[1] ?? "")).status).toBe("done");
  await expect(queue.waitFor(ids[0] ?? "")).rejects.toThrow(`unknown submission s1 (only the last ${RECENT_OUTCOMES}`);
});

test("closing cancels everything held, waits for it, and takes nothing more", async () => {
  const { queue, log } = harness();
  const a = queue.submit({ text: "a" });
  queue.submit({ text: "b" });
  while (queue.running() !== a) await Bun.sleep(1);
  expect(await queue.close()).toBe(true);
  expect(log).toEqual(["start s1 a", "end s1 interrupted", "start s2 b", "end s2 interrupted"]);
  expect(queue.pending()).toBe(0);
  expect(await queue.close()).toBe(false);
  expect(() => queue.submit({ text: "late" })).toThrow("the executor is closed");
});
