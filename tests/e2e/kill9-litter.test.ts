// A run killed with `kill -9` the moment its session's lock is written (before its first request)
// leaves a folder holding only that lock: the next new session and `synapse compact` remove it,
// but never the folder of a live run in that same state (stopped with SIGSTOP there instead).

import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, watch } from "node:fs";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, spawnBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();

/**
 * Starts a run and sends `signal` to it as soon as its new session folder holds a lock (an
 * inotify event, so the run has had no time to go further); resolves with that folder.
 */
async function signalAtLock(env: Record<string, string>, cwd: string, signal: "SIGKILL" | "SIGSTOP") {
  const root = join(env.SYNAPSE_HOME!, "sessions");
  mkdirSync(root, { recursive: true, mode: 0o700 });
  let proc!: ReturnType<typeof spawnBinary>;
  const folder = new Promise<string>((resolve) => {
    const watcher = watch(root, (_event, name) => {
      const dir = join(root, String(name ?? ""));
      if (!name || !existsSync(dir) || !statSync(dir).isDirectory()) return;
      watcher.close();
      let sent = false;
      const send = () => {
        if (sent) return;
        sent = true;
        inner.close();
        proc.kill(signal);
        resolve(dir);
      };
      // Once the lock holds its owner's pid: an empty lock is one being written, which counts as live.
      const written = () => {
        try {
          return readFileSync(join(dir, "lock"), "utf8").length > 0;
        } catch {
          return false;
        }
      };
      const inner = watch(dir, (_e, n) => n === "lock" && written() && send());
      if (written()) send();
    });
  });
  proc = spawnBinary({ args: ["hi"], env, cwd });
  return { proc, dir: await folder };
}

/** Only the lock's content left (and at most a temp file): the litter a run killed in its first moments leaves. */
const onlyLock = (dir: string) => readdirSync(dir).filter((n) => !/\.\d+\.tmp$/.test(n));

/**
 * A folder with nothing but a dead run's lock. The kill lands a moment after the lock is seen; a run
 * that got as far as its first save in that moment left a session, not litter: that try is removed
 * and made again (the folder is then a real session, which is not this test's case).
 */
async function litterLeft(env: Record<string, string>, cwd: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { proc, dir } = await signalAtLock(env, cwd, "SIGKILL");
    await proc.exited;
    if (onlyLock(dir).length === 1 && onlyLock(dir)[0] === "lock") return dir;
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error("the run always got past its lock before the kill landed");
}

describe("kill -9 before the first request", () => {
  test("the next new session removes the folder it left", async () => {
    const home = tempHome();
    const s = await serve([{ text: "ok" }]);
    const env = { ...home.env, ...providerEnv(s.url) };
    const dir = await litterLeft(env, home.dir);
    const next = await runBinary({ args: ["hi"], env, cwd: home.dir });
    expect(next.code).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(join(home.env.SYNAPSE_HOME!, "sessions"))).toHaveLength(1);
  }, 60_000);

  test("synapse compact removes it", async () => {
    const home = tempHome();
    const s = await serve([]);
    const env = { ...home.env, ...providerEnv(s.url) };
    const { proc, dir } = await signalAtLock(env, home.dir, "SIGKILL");
    await proc.exited;
    expect(existsSync(join(dir, "lock"))).toBe(true);
    const compact = await runBinary({ args: ["compact", "--all"], env, cwd: home.dir });
    expect(compact.code).toBe(0);
    expect(existsSync(dir)).toBe(false);
  }, 60_000);

  test("a live run's folder in the same state is left alone, and that run finishes", async () => {
    const home = tempHome();
    const s = await serve([{ text: "first" }, { text: "second" }]);
    const env = { ...home.env, ...providerEnv(s.url) };
    const { proc, dir } = await signalAtLock(env, home.dir, "SIGSTOP");
    try {
      const compact = await runBinary({ args: ["compact", "--all"], env, cwd: home.dir });
      expect(compact.code).toBe(0);
      const other = await runBinary({ args: ["hi"], env, cwd: home.dir });
      expect(other.code).toBe(0);
      expect(existsSync(join(dir, "lock"))).toBe(true);
    } finally {
      proc.kill("SIGCONT");
    }
    expect(await proc.exited).toBe(0);
    expect(existsSync(join(dir, "meta.json"))).toBe(true);
  }, 60_000);
});
