// Opening and closing many sessions in one process must not leak memory, timers or locks.
import { afterAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../src/store/session.ts";
import { msg, removeTempHomes, storeConfig, tempHome } from "./helpers.ts";

afterAll(removeTempHomes);

async function cycle(home: string, n: number): Promise<string[]> {
  const dirs: string[] = [];
  for (let s = 0; s < n; s++) {
    const { store } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig({ flushMs: 5 }),
      onWarning: () => {},
    });
    for (let i = 0; i < 40; i++) store.append(msg(i, "d".repeat(2000)));
    await store.flush();
    await store.saveImage(new Uint8Array(4096).fill(s % 256), "image/png");
    // Leave something queued with a flush timer pending: close must deal with both.
    store.append(msg(40));
    await store.close();
    dirs.push(store.dir);
  }
  return dirs;
}

function heapMb(): number {
  Bun.gc(true);
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

test("200 sessions created and closed in one process give their memory back", async () => {
  const home = tempHome();
  await cycle(home, 20); // warm up: JIT, module state, first allocations
  const before = heapMb();
  const dirs = await cycle(home, 200);
  const after = heapMb();
  // Were each closed session's window kept, 200 × 40 × 2 kB ≈ 15 MB would stay; allow a quarter
  // of that for the heap's own noise.
  const leakMb = (200 * 40 * 2000) / 1024 / 1024;
  expect(after - before).toBeLessThan(leakMb / 4);
  // Each close released its lock and wrote what was queued.
  for (const dir of dirs) expect(existsSync(join(dir, "lock"))).toBe(false);
  const { store } = await openSession({
    home,
    cwd: "/p",
    model: "m",
    config: storeConfig(),
    resume: { id: dirs.at(-1)!.split("/").at(-1)! },
    onWarning: () => {},
  });
  expect(store.window()).toHaveLength(41);
  await store.close();
});
