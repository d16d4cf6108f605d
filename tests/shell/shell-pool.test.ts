// The shell pool with real bash processes: reuse, completion, isolation and exit status.

import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { harness, pidOf, until, type Harness } from "./support.ts";

let h: Harness;
afterEach(async () => {
  await h.cleanup();
});

describe("running commands", () => {
  test("output and exit status", async () => {
    h = harness();
    const r = await h.run("echo hi; echo err >&2");
    expect(r).toMatchObject({
      output: "hi\nerr\n",
      exitCode: 0,
      timedOut: false,
      interrupted: false,
      finalCwd: h.root,
    });
  });

  test("printf without a trailing newline", async () => {
    h = harness();
    expect((await h.run("printf 'no newline'")).output).toBe("no newline");
  });

  test("output that looks like the shell's end-of-command record changes nothing", async () => {
    h = harness();
    const r = await h.run(
      String.raw`printf '\x01%s 9\n\x02/\0' abcdef0123456789; __sy_p; __sy_p; printf '\0\0'; echo after`,
    );
    expect(r.exitCode).toBe(0);
    expect(r.output.endsWith("after\n")).toBe(true);
    expect((await h.run("echo next")).output).toBe("next\n");
  });

  test("a progress bar keeps its final state, colours are removed", async () => {
    h = harness();
    const r = await h.run(
      String.raw`for i in 10 50 100; do printf '\rprogress %3d%%' $i; done; echo; printf '\e[31mred\e[0m \e[1mbold\e[0m\n'`,
    );
    expect(r.output).toBe("progress 100%\nred bold\n");
  });

  test("a command that reads stdin gets end-of-file at once", async () => {
    h = harness();
    const r = await h.run('cat; read x; echo "read=$?"');
    // Without end-of-file `cat` would wait for ever (past the test's timeout).
    expect(r.output).toBe("read=1\n");
  });

  test("a syntax error fails that command only", async () => {
    h = harness();
    const first = await h.run("echo $$");
    const bad = await h.run("echo 'unterminated");
    expect(bad.exitCode).toBe(2);
    expect(bad.output).toContain("unexpected EOF");
    const next = await h.run("echo $$");
    expect(next.output).toBe(`${pidOf(first)}\n`);
  });

  test("a stray `return` ends the command with its status", async () => {
    h = harness();
    expect((await h.run("echo before; return 5; echo never")).exitCode).toBe(5);
    expect((await h.run("echo ok")).output).toBe("ok\n");
  });

  test("bash's error messages say `bash: line N`, never the request file's path", async () => {
    h = harness();
    const r = await h.run("true\nno_such_command_x");
    expect(r.output).toBe("bash: line 2: no_such_command_x: command not found\n");
    // A trap left behind makes the next request clear it first: line numbers do not move.
    await h.run("trap 'echo t' USR1");
    expect((await h.run("no_such_command_x")).output).toBe("bash: line 1: no_such_command_x: command not found\n");
    expect((await h.run("echo 'open")).output).toBe(
      "bash: eval: line 1: unexpected EOF while looking for matching `''\n",
    );
  });

  test("200 000 emoji come back as head and tail without half an emoji, live chunks too", async () => {
    h = harness();
    const live: string[] = [];
    const r = await h.run("printf a; yes 😀 | head -n 200000 | tr -d '\\n'; echo", { onOutput: (t) => live.push(t) });
    expect(r.output.isWellFormed()).toBe(true);
    // 400 002 units; the head cut (6000) and the tail cut (376 002) both fall inside an emoji.
    expect(r.output).toStartWith(`a${"😀".repeat(2999)}\n[...370004 characters omitted...]\n😀`);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((t) => t.isWellFormed())).toBe(true);
  });

  test("a long command text arrives whole", async () => {
    h = harness();
    const body = Array.from({ length: 5000 }, (_, i) => `line ${i} with 'quotes' and $dollars`).join("\n");
    const r = await h.run(`cat <<'EOF' | wc -l\n${body}\nEOF`);
    expect(r.output.trim()).toBe("5000");
  });

  test("50 MB of output comes back as head and tail, with the count of what was left out", async () => {
    h = harness();
    const r = await h.run(`awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "%049d\\n", i }'`);
    expect(r.exitCode).toBe(0);
    expect(r.output.startsWith(`${"0".repeat(49)}\n`)).toBe(true);
    expect(r.output).toContain("\n[...49970000 characters omitted...]\n");
    expect(r.output.endsWith(`${"999999".padStart(49, "0")}\n`)).toBe(true);
    expect(r.output.length).toBeLessThan(30_100);
  });
});

describe("workspace", () => {
  test.skipIf(!existsSync("/dev/shm"))(
    "a workspace left by a process that died is removed by the next pool",
    async () => {
      const gone = Bun.spawn(["true"]);
      await gone.exited;
      const stale = join("/dev/shm", `synapse-shell-${gone.pid}-test`);
      mkdirSync(stale);
      h = harness();
      await h.run("true");
      expect(existsSync(stale)).toBe(false);
    },
  );
});

describe("shells are reused", () => {
  test("`cd src` then a command in the original directory: right place, same shell", async () => {
    h = harness();
    const first = await h.run("echo $$; cd src");
    expect(first.finalCwd).toBe(join(h.root, "src"));
    const second = await h.run("echo $$; pwd");
    expect(second.output).toBe(`${pidOf(first)}\n${h.root}\n`);
    expect(second.finalCwd).toBe(h.root);
    expect(h.pool.stats()).toMatchObject({ shells_spawned: 1, shells_reused: 1, commands_run: 2 });
  });

  test("parallel commands get different shells", async () => {
    h = harness();
    const gate = join(h.root, "gate");
    await h.run(`mkfifo ${gate}`);
    // Each waits for the other through the fifo: they can only finish if they run at once.
    const [a, b] = await Promise.all([h.run(`echo $$; cat ${gate}`), h.run(`echo $$ > ${gate}`)]);
    expect(a.exitCode).toBe(0);
    expect(b.exitCode).toBe(0);
    const [pidA, fromB] = a.output.trim().split("\n").map(Number);
    expect(pidA).not.toBe(fromB);
  });

  test("beyond poolMax, a command waits for a free shell", async () => {
    h = harness({ poolMax: 2 });
    const gate = join(h.root, "gate");
    await h.run(`mkfifo ${gate}`);
    const first = h.run(`cat ${gate} > /dev/null; echo first`);
    const second = h.run(`echo opened > ${gate}; echo second`);
    const third = h.run("echo third");
    // Shells are handed out synchronously: the third command got none.
    expect(h.pool.stats().shells_spawned).toBe(2);
    expect((await Promise.all([first, second, third])).map((r) => r.output)).toEqual([
      "first\n",
      "second\n",
      "third\n",
    ]);
    expect(h.pool.stats().shells_spawned).toBe(2);
  });

  test("a shell that had to change directory more than maxCd times is replaced", async () => {
    h = harness({ maxCd: 2 });
    const pids: number[] = [];
    for (const dir of [h.root, join(h.root, "src"), h.root, join(h.root, "src"), h.root]) {
      pids.push(pidOf(await h.run("echo $$", { cwd: dir })));
    }
    // Directory changes on commands 2, 3 and 4: the third is one too many.
    expect(new Set(pids.slice(0, 4)).size).toBe(1);
    expect(pids[4]).not.toBe(pids[0]);
    expect(h.pool.stats()).toMatchObject({ shells_spawned: 2, shells_retired: 1 });
  });

  test("idle shells beyond idleMax are closed after idleMs", async () => {
    h = harness({ idleMax: 0, idleMs: 30 });
    await h.run("true");
    expect(h.pool.stats().shells_retired).toBe(0);
    expect(await until(() => h.pool.stats().shells_retired === 1)).toBe(true);
    await h.run("true");
    expect(h.pool.stats().shells_spawned).toBe(2);
  });
});

describe("isolation between commands", () => {
  test("`exit 7` reports 7 and the next command gets a new shell", async () => {
    h = harness();
    const first = await h.run("echo $$; exit 7");
    expect(first).toMatchObject({ exitCode: 7, output: `${pidOf(first)}\n` });
    const next = await h.run("echo $$");
    expect(next.exitCode).toBe(0);
    expect(pidOf(next)).not.toBe(pidOf(first));
    expect(h.pool.stats()).toMatchObject({ shells_spawned: 2, shells_retired: 1 });
  });

  test("`kill -9 $$` reports SIGKILL and the pool carries on", async () => {
    h = harness();
    const r = await h.run("echo before; kill -9 $$");
    expect(r).toMatchObject({ exitCode: 137, signal: "SIGKILL", output: "before\n", timedOut: false });
    expect((await h.run("echo after")).output).toBe("after\n");
  });

  test("a shell killed from outside while idle is replaced before the next command", async () => {
    h = harness();
    const first = await h.run("echo $$");
    process.kill(pidOf(first), "SIGKILL");
    expect(await until(() => h.pool.stats().shells_retired === 1)).toBe(true);
    const next = await h.run("echo $$");
    expect(next.exitCode).toBe(0);
    expect(pidOf(next)).not.toBe(pidOf(first));
  });

  test("a command dying of a signal reports its name", async () => {
    h = harness();
    expect(await h.run("sh -c 'kill -TERM $$'")).toMatchObject({ exitCode: 143, signal: "SIGTERM" });
    expect(await h.run("sh -c 'kill -INT $$'")).toMatchObject({ exitCode: 130, signal: "SIGINT" });
  });

  test("options and traps a command sets do not reach the next command", async () => {
    h = harness({ killGraceMs: 120_000 });
    const first = await h.run(
      "echo $$; set -euo pipefail; set -x; shopt -s nullglob; trap 'echo TRAPPED' EXIT DEBUG ERR; trap '' TERM INT",
    );
    expect(first.exitCode).toBe(0);
    const next = await h.run(
      'echo $$; echo "$-"; shopt -p nullglob; trap -p; false | true; echo "pipe=$?"; echo "${undefined_var}unset-ok"',
    );
    const lines = next.output.split("\n");
    expect(lines[0]).toBe(String(pidOf(first)));
    expect(lines[1]).not.toMatch(/[eux]/);
    expect(lines.slice(2)).toEqual(["shopt -u nullglob", "pipe=0", "unset-ok", ""]);
    // A TERM the last command told the shell to ignore must not shield this one from a timeout:
    // with the SIGKILL fallback two minutes away, only the TERM can end it within the test's timeout.
    const t = await h.run("sleep 100", { timeoutMs: 200 });
    expect(t.timedOut).toBe(true);
  });

  test("a lowered open-files limit lasts one command; one that cannot be raised again costs the shell", async () => {
    h = harness();
    const first = await h.run("echo $$; ulimit -Sn 20; ulimit -Sn");
    expect(first.output).toEndWith("\n20\n");
    const restored = await h.run("echo $$; ulimit -Sn");
    expect(pidOf(restored)).toBe(pidOf(first));
    expect(restored.output).not.toEndWith("\n20\n");
    // Plain `ulimit -n 5` lowers the hard limit too; the shell could not even open its output pipe.
    expect((await h.run("ulimit -n 5; echo lowered")).output).toBe("lowered\n");
    const after = await h.run("echo $$; echo ok");
    expect(after.exitCode).toBe(0);
    expect(after.output).toBe(`${pidOf(after)}\nok\n`);
    expect(pidOf(after)).not.toBe(pidOf(first));
    expect(h.pool.stats()).toMatchObject({ shells_spawned: 2, shells_retired: 1 });
  });

  test("exported variables stay with the task's shell, and do not reach another task", async () => {
    h = harness();
    const a1 = await h.run("echo $$; export SYNAPSE_T=kept; hello() { echo fn; }", { taskId: "a" });
    const a2 = await h.run('echo $$; echo "$SYNAPSE_T"; hello', { taskId: "a" });
    expect(a2.output).toBe(`${pidOf(a1)}\nkept\nfn\n`);
    h.pool.releaseTask("a");
    // Task b gets the same (now unbound) shell, reset first.
    const b = await h.run('echo $$; echo "${SYNAPSE_T-unset}"; type hello >/dev/null 2>&1 || echo no-fn', {
      taskId: "b",
    });
    expect(b.output).toBe(`${pidOf(a1)}\nunset\nno-fn\n`);
    expect(h.pool.stats()).toMatchObject({ shells_spawned: 1 });
  });

  test("a task's bound shell is not given to another task while a new one can be made", async () => {
    h = harness();
    const a = await h.run("echo $$", { taskId: "a" });
    const b = await h.run("echo $$", { taskId: "b" });
    expect(pidOf(b)).not.toBe(pidOf(a));
  });
});
