// Timeouts, interruption, background jobs and shutdown: every process the pool started must end
// when it should, and nothing may survive close() or killAllNow(). Checked in the process table.

import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { harness, pidOf, processes, survivors, until, type Harness } from "./support.ts";

let h: Harness;
afterEach(async () => {
  await h.cleanup();
});

/** A unique argument so the test can find its own processes in the process table. */
const marker = () => `${Math.floor(Math.random() * 1e6) + 1000}.${Math.floor(Math.random() * 1000)}`;

describe("process groups", () => {
  test("the shell leads its own session and each command gets its own process group", async () => {
    h = harness();
    const r = await h.run("echo $$; sh -c 'echo $$; ps -o pgid=,sid= -p $$'");
    const [shellPid, childPid, groupAndSession] = r.output.trim().split("\n");
    const [pgid, sid] = groupAndSession!.trim().split(/\s+/).map(Number);
    expect(pgid).toBe(Number(childPid));
    expect(sid).toBe(Number(shellPid));
    const self = readFileSync("/proc/self/stat", "latin1");
    const selfGroup = Number(self.slice(self.lastIndexOf(")") + 2).split(" ")[2]);
    expect(pgid).not.toBe(selfGroup);
    expect(processes().find((p) => p.pid === Number(shellPid))).toMatchObject({
      pgid: Number(shellPid),
      sid: Number(shellPid),
    });
  });
});

describe("timeouts", () => {
  test("`sleep 100` is killed at the timeout and the next command runs at once", async () => {
    h = harness();
    const m = marker();
    const r = await h.run(`echo started; sleep ${m}`, { timeoutMs: 300 });
    expect(r).toMatchObject({ timedOut: true, interrupted: false, exitCode: null, output: "started\n" });
    // No upper bound on the time: a sleep that is not killed outlasts the test's timeout.
    expect(r.durationMs).toBeGreaterThanOrEqual(290);
    expect(survivors(m)).toEqual([]);
    const next = await h.run("echo next");
    expect(next.output).toBe("next\n");
  });

  test("`yes` is killed at the timeout and its output kept, bounded", async () => {
    h = harness();
    const r = await h.run("yes", { timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.output.startsWith("y\n<previous line repeated")).toBe(true);
    expect(r.output.length).toBeLessThan(200);
  });

  test("a command that ignores SIGTERM gets SIGKILL after the grace period", async () => {
    h = harness({ killGraceMs: 200 });
    const m = marker();
    const r = await h.run(`bash -c 'trap "" TERM; echo armed; while :; do sleep ${m}; done'`, { timeoutMs: 200 });
    expect(r).toMatchObject({ timedOut: true, output: "armed\n" });
    expect(r.durationMs).toBeGreaterThanOrEqual(200 + 190);
    expect(survivors(m)).toEqual([]);
  });

  test("a shell that ignores SIGTERM itself, running a loop of builtins, is killed too", async () => {
    h = harness({ killGraceMs: 100 });
    const r = await h.run("trap '' TERM; while :; do :; done", { timeoutMs: 200 });
    expect(r.timedOut).toBe(true);
    expect((await h.run("echo alive")).output).toBe("alive\n");
  });

  test("the rest of a compound command does not run after the timeout", async () => {
    h = harness();
    const flag = join(h.root, "ran-on");
    const r = await h.run(`sleep 100; touch ${flag}`, { timeoutMs: 200 });
    expect(r.timedOut).toBe(true);
    const check = await h.run(`test -e ${flag} && echo ran || echo stopped`);
    expect(check.output).toBe("stopped\n");
  });
});

describe("interruption", () => {
  test("aborting the signal kills the command; the output so far is kept", async () => {
    h = harness();
    const ac = new AbortController();
    const m = marker();
    const r = await h.run(`echo started; sleep ${m}`, {
      signal: ac.signal,
      onOutput: (text) => {
        if (text.includes("started")) ac.abort();
      },
    });
    expect(r).toMatchObject({ interrupted: true, timedOut: false, exitCode: null, output: "started\n" });
    expect(survivors(m)).toEqual([]);
    expect((await h.run("echo next")).output).toBe("next\n");
  });

  test("a signal already aborted runs nothing", async () => {
    h = harness();
    const ac = new AbortController();
    ac.abort();
    const r = await h.run("echo never", { signal: ac.signal });
    expect(r).toMatchObject({ interrupted: true, output: "", exitCode: null });
    expect(h.pool.stats().commands_run).toBe(0);
  });
});

describe("background jobs", () => {
  test("`sleep 100 &` returns at once; its later output reaches no later command", async () => {
    h = harness();
    const gate = join(h.root, "gate");
    const done = join(h.root, "done");
    const m = marker();
    await h.run(`mkfifo ${gate}`);
    const first = await h.run(
      `sleep ${m} & (cat ${gate} > /dev/null; echo LEAKED; echo LEAKED >&2; touch ${done}) & echo started`,
    );
    // Returning at all is the check: waiting on the job would outlast the test's timeout.
    expect(first.output).toBe("started\n");
    // This command lets the job go and ends only after the job has printed.
    const second = await h.run(`echo go > ${gate}; while [ ! -e ${done} ]; do sleep 0.01; done; echo second`);
    expect(second.output).toBe("second\n");
    expect((await h.run("echo third")).output).toBe("third\n");
    // The background sleep is still running: only the pool's end kills it.
    expect(survivors(m).length).toBe(1);
  });

  test("a background job that never stops writing neither blocks nor leaks", async () => {
    h = harness();
    const first = await h.run("yes BACKGROUND & echo started");
    // What the job wrote while the command ran is the command's output, as on a terminal.
    expect(first.output).toContain("started\n");
    const second = await h.run("echo second");
    expect(second.output).toBe("second\n");
  });

  test("a timeout spares background jobs of earlier commands", async () => {
    h = harness();
    const m = marker();
    await h.run(`sleep ${m} &`);
    expect((await h.run("sleep 100", { timeoutMs: 200 })).timedOut).toBe(true);
    expect(survivors(m).length).toBe(1);
    // Its shell is gone, but the pool still ends the job when it closes.
    await h.pool.close();
    expect(survivors(m)).toEqual([]);
  });
});

describe("shutdown leaves no process behind", () => {
  async function startEverything(): Promise<{ m: string; shells: number[]; running: Promise<unknown> }> {
    const m = marker();
    const first = await h.run(
      `echo $$; sleep ${m} & (sleep ${m} &); nohup sleep ${m} > /dev/null 2>&1 & setsid -f sleep ${m}.1 2>/dev/null; true`,
    );
    const second = await h.run(`echo $$; sh -c 'sleep ${m}' &`, { taskId: "other" });
    const running = h.run(`echo $$; sleep ${m}`, { taskId: "third" });
    const shells = [pidOf(first), pidOf(second)];
    expect(await until(() => survivors(m).filter((p) => p.cmdline.startsWith("sleep")).length >= 5)).toBe(true);
    return { m, shells, running };
  }

  test("close()", async () => {
    h = harness();
    const { m, shells, running } = await startEverything();
    await h.pool.close();
    expect(await running).toMatchObject({ interrupted: true });
    // setsid -f escapes the session on purpose; the pool cannot know about it.
    const left = survivors(m, shells).filter((p) => !p.cmdline.includes(`${m}.1`));
    expect(left).toEqual([]);
    expect(await h.pool.close()).toBeUndefined();
    for (const p of survivors(`${m}.1`)) process.kill(p.pid, "SIGKILL");
  });

  test("killAllNow()", async () => {
    h = harness();
    const { m, shells, running } = await startEverything();
    h.pool.killAllNow();
    // SIGKILL is delivered at once, but the table may show a process for a moment longer.
    expect(await until(() => survivors(m, shells).filter((p) => !p.cmdline.includes(`${m}.1`)).length === 0)).toBe(
      true,
    );
    await running;
    for (const p of survivors(`${m}.1`)) process.kill(p.pid, "SIGKILL");
  });

  test("close() while idle, and a closed pool refuses work", async () => {
    h = harness();
    const first = await h.run("echo $$");
    await h.pool.close();
    expect(await until(() => survivors("\0", [pidOf(first)]).length === 0)).toBe(true);
    await expect(h.run("echo late")).rejects.toThrow("closed");
  });
});
