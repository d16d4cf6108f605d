// One writer per session: real second processes, stale locks, same-process reopen.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { UsageError } from "../../src/protocol/errors.ts";
import { openSession } from "../../src/store/session.ts";
import { spawnFixture } from "./child.ts";
import { msg, removeTempHomes, storeConfig, tempHome } from "./helpers.ts";

afterAll(removeTempHomes);

const quiet = () => {};

async function sessionWithOneMessage(home: string): Promise<string> {
  const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
  store.append(msg(0));
  await store.close();
  return store.id;
}

describe("session lock", () => {
  test("a second process on the same session gets a usage error naming the holder's pid", async () => {
    const home = tempHome();
    const id = await sessionWithOneMessage(home);
    const holder = spawnFixture("holder.ts", [home, id]);
    const [, pid] = await holder.waitFor(/^ready (\d+)$/);
    try {
      const second = spawnFixture("holder.ts", [home, id]);
      const [line] = await second.waitFor(/^error .*/);
      expect(line).toContain(`pid ${pid}`);
      expect(await second.proc.exited).toBe(2);
      // And in this process too.
      const err = await openSession({
        home,
        cwd: "/p",
        model: "m",
        config: storeConfig(),
        resume: { id },
        onWarning: quiet,
      }).catch((e) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect(err.exitCode).toBe(2);
      expect(err.message).toContain(`pid ${pid}`);
    } finally {
      holder.proc.kill("SIGKILL");
      await holder.proc.exited;
    }
    // The holder died without releasing: its lock is stale now and taken over.
    const { store } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      resume: { id },
      onWarning: quiet,
    });
    expect(store.window().map((m) => m.id)).toEqual(["m0"]);
    await store.close();
  });

  test("a stale lock from a dead pid is taken over; close removes the lock", async () => {
    const home = tempHome();
    const id = await sessionWithOneMessage(home);
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    const lock = join(home, "sessions", id, "lock");
    writeFileSync(lock, JSON.stringify({ pid: dead.pid, host: hostname(), token: "old" }));
    const { store } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      resume: { id },
      onWarning: quiet,
    });
    expect(JSON.parse(readFileSync(lock, "utf8")).pid).toBe(process.pid);
    await store.close();
    expect(existsSync(lock)).toBe(false);
  });

  test("a lock held by a live process (a bare pid, as a hand-written lock) is respected", async () => {
    const home = tempHome();
    const id = await sessionWithOneMessage(home);
    const lock = join(home, "sessions", id, "lock");
    const live = Bun.spawn(["sleep", "30"]);
    try {
      writeFileSync(lock, `${live.pid}\n`);
      const err = await openSession({
        home,
        cwd: "/p",
        model: "m",
        config: storeConfig(),
        resume: { id },
        onWarning: quiet,
      }).catch((e) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect(err.message).toContain(`pid ${live.pid}`);
    } finally {
      live.kill("SIGKILL");
      await live.exited;
    }
  });

  test("the same process cannot open a session twice", async () => {
    const home = tempHome();
    const id = await sessionWithOneMessage(home);
    const first = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      resume: { id },
      onWarning: quiet,
    });
    const err = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      resume: { id },
      onWarning: quiet,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toContain("this process");
    await first.store.close();
    const again = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      resume: { id },
      onWarning: quiet,
    });
    await again.store.close();
  });
});
