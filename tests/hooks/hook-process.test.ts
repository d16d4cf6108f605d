// One hook command, run for real (bash, unconfined here; the sandboxed runs are in the e2e tests):
// stdin delivered whole or refused without harm, the time limit kills the whole group, an
// interrupt likewise, and nothing it started outlives it.

import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { runHookCommand } from "../../src/hooks/hook-process.ts";

const opts = { cwd: "/tmp", bash: "/bin/bash", env: { PATH: "/usr/bin:/bin" } };
const never = new AbortController().signal;

/** Pids whose command line holds `marker`. */
function alive(marker: string): string[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    });
}

/** `alive(marker)` once SIGKILL has done its work (it is delivered asynchronously), at most 5 s on. */
async function aliveAfterKill(marker: string): Promise<string[]> {
  for (let i = 0; i < 100 && alive(marker).length; i++) await Bun.sleep(50);
  return alive(marker);
}

describe("runHookCommand", () => {
  test("a large event reaches a hook whole", async () => {
    const r = await runHookCommand("wc -c", "x".repeat(3_000_000), 10_000, opts, never);
    expect(r).toEqual({ code: 0, stdout: "3000000\n", stderr: "" });
  });

  test("a hook that never reads its stdin is not an error (no unhandled broken pipe)", async () => {
    const unhandled: unknown[] = [];
    const onRejection = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onRejection);
    try {
      const r = await runHookCommand("echo '{}'; exit 0", "x".repeat(3_000_000), 10_000, opts, never);
      expect(r.code).toBe(0);
      await Bun.sleep(100);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onRejection);
    }
  });

  test("the time limit kills the hook and what it started", async () => {
    const marker = `41.${process.pid}1`;
    const r = await runHookCommand(`sleep ${marker} & sleep ${marker}`, "{}", 300, opts, never);
    expect(r.timedOut).toBe(true);
    expect(r.code).toBeNull();
    expect(await aliveAfterKill(marker)).toEqual([]);
  });

  test("an interrupt kills it too; a job left behind by a hook that ended is killed with it", async () => {
    const marker = `42.${process.pid}2`;
    const controller = new AbortController();
    const running = runHookCommand(`sleep ${marker}`, "{}", 60_000, opts, controller.signal);
    await Bun.sleep(100);
    controller.abort();
    expect((await running).code).toBeNull();
    const left = `43.${process.pid}3`;
    const r = await runHookCommand(`(sleep ${left} >/dev/null 2>&1 &); echo done`, "{}", 60_000, opts, never);
    expect(r.stdout).toBe("done\n");
    expect(await aliveAfterKill(marker)).toEqual([]);
    expect(await aliveAfterKill(left)).toEqual([]);
  });

  test("a process that left the hook's group holding its stdout does not keep the hook from ending", async () => {
    // Unconfined, `setsid` escapes the group kill; what it holds open must not hold the run.
    const marker = `44.${process.pid}4`;
    // It answers only once the process has left its group (else the group kill could win the race).
    const escaped = `/tmp/hook-escaped-${process.pid}`;
    const command =
      `setsid sh -c 'touch ${escaped}; exec sleep ${marker}' & ` +
      `until [ -e ${escaped} ]; do sleep 0.01; done; rm ${escaped}; echo '{"decision":"block"}'`;
    const race = Promise.race([
      runHookCommand(command, "{}", 60_000, opts, never),
      Bun.sleep(20_000).then(() => "still waiting on the pipe" as const),
    ]);
    try {
      const r = await race;
      expect(r).toEqual({ code: 0, stdout: '{"decision":"block"}\n', stderr: "" });
    } finally {
      for (const pid of alive(marker)) process.kill(Number(pid), "SIGKILL");
    }
  }, 30_000);
});
