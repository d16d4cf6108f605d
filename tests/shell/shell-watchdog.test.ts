// The per-shell watchdog: when the process that owns the pool dies without cleaning up (kill -9),
// nothing a shell started may survive it; otherwise the watchdog stays out of sight and leaves
// with its shell. Checked in the process table.

import { afterEach, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { pollUntil } from "../support/wait.ts";
import { harness, pidOf, processes, survivors, type Harness } from "./support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const marker = () => `${Math.floor(Math.random() * 1e6) + 1000}.${Math.floor(Math.random() * 1000)}`;

/** Live watchdogs guarding the session `sid`. */
const watchdogsOf = (sid: number) => processes().filter((p) => !p.zombie && p.cmdline.endsWith(`watchdog.sh ${sid}`));

describe("watchdog", () => {
  test("one per shell, in a session of its own, invisible to commands", async () => {
    h = harness();
    const r = await h.run("echo $$; jobs -p; echo $!; ps -o pid= --ppid $$");
    const shell = pidOf(r);
    const [watchdog] = watchdogsOf(shell);
    expect(watchdog).toBeDefined();
    // Neither a job nor a child of the shell: `jobs -p` prints nothing, the ps is the only child.
    expect(r.output).not.toContain(String(watchdog!.pid));
    expect(r.output.trim().split("\n").length).toBe(3);
    expect(watchdog!.sid).toBe(watchdog!.pid);
    expect(
      processes()
        .filter((p) => p.sid === shell && !p.zombie)
        .map((p) => p.pid),
    ).toEqual([shell]);
    // It holds nothing of the shell's: no output pipe, no request file.
    const fds = await Bun.$`ls -l /proc/${watchdog!.pid}/fd`.nothrow().text();
    expect(fds).not.toContain("/out-");
    expect(fds).not.toContain("/request-");
  });

  test("close() and killAllNow() end it", async () => {
    h = harness();
    const first = pidOf(await h.run("echo $$"));
    expect(watchdogsOf(first).length).toBe(1);
    await h.pool.close();
    expect(watchdogsOf(first)).toEqual([]);

    h = harness();
    const second = pidOf(await h.run("echo $$; sleep 100 &"));
    expect(watchdogsOf(second).length).toBe(1);
    h.pool.killAllNow();
    await pollUntil("the watchdog to end", () => watchdogsOf(second).length === 0, { seen: () => watchdogsOf(second) });
  });

  test("a replaced shell's watchdog stays while its background jobs run, then leaves", async () => {
    h = harness();
    const m = marker();
    const shell = pidOf(await h.run(`echo $$; sleep 1.${m.replace(".", "")} &`));
    expect((await h.run("sleep 100", { timeoutMs: 200 })).timedOut).toBe(true);
    expect(watchdogsOf(shell).length).toBe(1);
    // The job ends after about a second; the watchdog notices at its next 2 s check.
    await pollUntil("the watchdog to leave", () => watchdogsOf(shell).length === 0, { seen: () => watchdogsOf(shell) });
  });

  test("a replaced shell that left nothing behind takes its watchdog along", async () => {
    h = harness();
    const shell = pidOf(await h.run("echo $$"));
    expect((await h.run("sleep 100", { timeoutMs: 200 })).timedOut).toBe(true);
    await pollUntil("the watchdog to leave", () => watchdogsOf(shell).length === 0, { seen: () => watchdogsOf(shell) });
  });

  test("kill -9 of the owner: shells, commands and background jobs are gone within 2 s", async () => {
    const m = marker();
    const pool = resolve(import.meta.dir, "../../src/shell/shell-pool.ts");
    const support = resolve(import.meta.dir, "support.ts");
    const code = `
      const { createShellPool } = await import(${JSON.stringify(pool)});
      const { TEST_CONFIG } = await import(${JSON.stringify(support)});
      const pool = createShellPool(TEST_CONFIG);
      const cwd = process.cwd();
      const a = await pool.run({ command: "echo $$; sleep ${m} & (sleep ${m} &); nohup sleep ${m} >/dev/null 2>&1 &", cwd, taskId: "a", timeoutMs: 10000 });
      const b = await pool.run({ command: "echo $$", cwd, taskId: "b", timeoutMs: 10000 });
      console.log(a.output.split("\\n")[0], b.output.split("\\n")[0]);
      pool.run({ command: "sleep ${m} & sleep ${m}", cwd, taskId: "a", timeoutMs: 10000 });
      pool.run({ command: "trap '' TERM HUP; sleep ${m}", cwd, taskId: "b", timeoutMs: 10000 });
      await new Promise(() => {});
    `;
    const owner = Bun.spawn([process.execPath, "-e", code], { cwd: "/tmp", stdout: "pipe", stderr: "inherit" });
    const reader = owner.stdout.getReader();
    const { value } = await reader.read();
    const shells = new TextDecoder().decode(value).trim().split(" ").map(Number);
    expect(shells.length).toBe(2);
    const sleeps = () => survivors(m).filter((p) => p.cmdline.startsWith("sleep"));
    await pollUntil("six sleeps to run", () => sleeps().length === 6, { seen: sleeps });
    owner.kill("SIGKILL");
    await owner.exited;
    // How soon the watchdogs act is not asserted.
    const left = () => [...survivors(m, shells), ...shells.flatMap(watchdogsOf)];
    await pollUntil("every process and watchdog to be gone", () => left().length === 0, { seen: left });
  });
});
