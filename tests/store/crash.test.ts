// kill -9 of a real writer process mid-run: every message it had flushed is there on resume.
import { afterAll, describe, expect, test } from "bun:test";
import { openSession } from "../../src/store/session.ts";
import { spawnFixture } from "./child.ts";
import { removeTempHomes, storeConfig, tempHome, warnings } from "./helpers.ts";

afterAll(removeTempHomes);

describe("crash safety", () => {
  test("after kill -9 mid-run, reopening sees every flushed message, in order", async () => {
    const home = tempHome();
    const child = spawnFixture("writer.ts", [home]);
    const [, id] = await child.waitFor(/^session (\S+)$/);
    // Enough turns that the archive has rotated (16 KiB segments) before the kill.
    await child.waitFor(/^flushed (\d{3,})$/);
    child.proc.kill("SIGKILL");
    await child.proc.exited;
    expect(child.proc.signalCode).toBe("SIGKILL");
    const flushed = Math.max(
      ...child.lines
        .map((l) => /^flushed (\d+)$/.exec(l)?.[1])
        .filter(Boolean)
        .map(Number),
    );
    expect(flushed).toBeGreaterThanOrEqual(100);

    const w = warnings();
    // The dead writer's lock is stale and taken over.
    const { store } = await openSession({
      home,
      cwd: "/crash",
      model: "m",
      config: storeConfig(),
      resume: { latest: true },
      onWarning: w.push,
    });
    expect(store.id).toBe(id!);
    const ids: string[] = [];
    for await (const m of store.readAll()) ids.push(m.id);
    expect(ids.length).toBeGreaterThanOrEqual(flushed);
    expect(ids.slice(0, flushed)).toEqual(Array.from({ length: flushed }, (_, i) => `m${i}`));
    // Whatever else made it is in order with nothing missing in between.
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => `m${i}`));
    expect(store.meta().messages).toBe(ids.length);
    // Only a torn last line (if the kill landed mid-write) may be reported.
    for (const m of w.list) expect(m).toMatch(/torn last line/);
    await store.close();
  });
});
