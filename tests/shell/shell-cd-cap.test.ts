// The directory-move cap (SYNAPSE_SHELL_MAX_CD) with real shells: the `cd sub && cmd` idiom the
// Bash description recommends is no move, and a shell replaced for moving too often hands its
// exported variables and functions to its task's next shell (an activated virtualenv survives).

import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { type Harness, harness } from "./support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const pidOf = (output: string) => Number(output.trim().split(/\s+/)[0]);

test("20 `cd sub && echo $X` commands after `export X=1` keep X, in one shell", async () => {
  h = harness({ maxCd: 5 });
  const first = await h.run("export X=1; echo $$");
  const pid = pidOf(first.output);
  for (let i = 0; i < 20; i++) {
    const r = await h.run("cd src && echo $$ $X");
    expect(r.output).toBe(`${pid} 1\n`);
  }
  expect(h.pool.stats()).toMatchObject({ shells_spawned: 1, shells_retired: 0 });
});

test("a shell replaced after too many real moves carries its exported variables and functions over", async () => {
  h = harness({ maxCd: 2 });
  const src = join(h.root, "src");
  const first = await h.run("export VIRTUAL_ENV=/venv X='two words'; greet() { echo hi from greet; }; echo $$");
  const pids = [pidOf(first.output)];
  for (const dir of [src, h.root, src, h.root]) pids.push(pidOf((await h.run("echo $$", { cwd: dir })).output));
  // Moves on commands 2, 3 and 4: the third is one too many, so command 5 has a new shell.
  expect(new Set(pids.slice(0, 4)).size).toBe(1);
  expect(pids[4]).not.toBe(pids[0]);
  expect(h.pool.stats()).toMatchObject({ shells_spawned: 2, shells_retired: 1 });
  const after = await h.run('echo "$VIRTUAL_ENV|$X|$PWD"; greet');
  expect(after.output).toBe(`/venv|two words|${h.root}\nhi from greet\n`);
});

test("what one task carried over never reaches another task's shell", async () => {
  h = harness({ maxCd: 0, poolMax: 1 });
  await h.run("export SECRET_OF_MAIN=1; true");
  await h.run("true", { cwd: join(h.root, "src") }); // a move past the cap: replaced, state saved
  const other = await h.run('echo "[$SECRET_OF_MAIN]"', { taskId: "task-2" });
  expect(other.output).toBe("[]\n");
});
