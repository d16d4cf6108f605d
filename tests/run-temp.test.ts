// The test run's own temp folder: every temp folder a test makes goes with the run, and a run that
// died before its end has its folder removed by the next one, never a live run's.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { claimRunRoot, releaseRunRoot, runOwner } from "./support/run-temp.ts";

const REPO = resolve(import.meta.dir, "..");

describe("run folder names", () => {
  test.each([
    ["synapse-run-123-AbC9xz", 123],
    ["synapse-run-7-a-b", 7],
    ["synapse-run-123", undefined],
    ["synapse-run--abc", undefined],
    ["synapse-run-x1-abc", undefined],
    ["synapse-e2e-123-abc", undefined],
    ["unrelated", undefined],
  ])("%s → %p", (name, owner) => {
    expect(runOwner(name)).toBe(owner);
  });
});

describe("claimRunRoot", () => {
  test("removes dead runs' folders, keeps live ones and anything else", async () => {
    const base = mkdtempSync(join(tmpdir(), "run-temp-base-"));
    const gone = Bun.spawn(["true"]);
    await gone.exited;
    const dead = join(base, `synapse-run-${gone.pid}-dead01`);
    const live = join(base, "synapse-run-1-live01");
    const mine = join(base, `synapse-run-${process.pid}-mine01`);
    const other = join(base, "synapse-e2e-abc");
    for (const dir of [dead, live, mine, other]) mkdirSync(join(dir, "inside"), { recursive: true });
    writeFileSync(join(dead, "inside", "file"), "x");

    const root = claimRunRoot(base);
    expect(runOwner(basename(root))).toBe(process.pid);
    expect(dirname(root)).toBe(base);
    expect([dead, live, mine, other, root].map(existsSync)).toEqual([false, true, true, true, true]);
    releaseRunRoot(base);
  });
});

describe("the test preload", () => {
  test("points TMPDIR, os.tmpdir() and HOME into this run's folder", () => {
    const run = process.env.TMPDIR!;
    expect(tmpdir()).toBe(run);
    expect(runOwner(basename(run))).toBe(process.pid);
    expect(process.env.HOME!.startsWith(`${run}/`)).toBe(true);
  });

  test("a run's temp folders are gone when it ends", async () => {
    const outer = mkdtempSync(join(tmpdir(), "run-temp-outer-"));
    const fixture = mkdtempSync(join(tmpdir(), "run-temp-fixture-"));
    // A test that leaves a temp folder behind and prints where.
    writeFileSync(
      join(fixture, "leak.test.ts"),
      `import { test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
test("leaks", () => { console.log("LEFT", mkdtempSync(join(tmpdir(), "leak-"))); });
`,
    );
    // cwd is the repository, so its bunfig.toml (and the preload) applies to the inner run.
    const proc = Bun.spawn([process.execPath, "test", join(fixture, "leak.test.ts")], {
      cwd: REPO,
      env: { PATH: process.env.PATH!, TMPDIR: outer, HOME: process.env.HOME! },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).toBe(0);
    const left = /LEFT (\S+)/.exec(out + err)?.[1];
    expect(left?.startsWith(`${outer}/synapse-run-`)).toBe(true);
    expect(readdirSync(outer)).toEqual([]);
  });
});
