// cli/process-lifecycle.ts in real child processes (tests/cli/fixtures/lifecycle-child.ts), real
// signals and files: two SIGINTs end once, after the save, with 130; SIGTERM ends with 143 after
// saving; a crash (thrown in a timer, or a rejection nobody awaited) is reported in one line, the
// session saved, and the exit is 1. Plus the pure exit-code rules.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codeAfterSave, codeForResult, endOnce } from "../../src/cli/process-lifecycle.ts";

const CHILD = join(import.meta.dir, "fixtures", "lifecycle-child.ts");

function start(mode: "signals" | "crash" | "rejection") {
  const dir = mkdtempSync(join(tmpdir(), "synapse-lifecycle-"));
  const proc = Bun.spawn([process.execPath, CHILD, mode, dir], { stdout: "pipe", stderr: "pipe" });
  const log = () =>
    existsSync(join(dir, "log")) ? readFileSync(join(dir, "log"), "utf8").split("\n").filter(Boolean) : [];
  /** Waits for a line in the child's log; the deadline only bounds a failing test. */
  const logged = async (line: string) => {
    const end = Date.now() + 20_000;
    while (!log().includes(line)) {
      if (Date.now() > end) throw new Error(`never logged ${line}: ${log().join(" | ")}`);
      await Bun.sleep(5);
    }
  };
  return { dir, proc, log, logged };
}

describe("signals", () => {
  test("SIGINT twice: the second does not cut the save; one save, then exit 130", async () => {
    const c = start("signals");
    await c.logged("ready");
    c.proc.kill("SIGINT");
    // Sent once the first is handled (two pending SIGINTs would merge into one).
    await c.logged("SIGINT 1");
    c.proc.kill("SIGINT");
    expect(await c.proc.exited).toBe(130);
    const log = c.log();
    expect(log).toContain("SIGINT 2");
    expect(log.filter((l) => l === "save started")).toHaveLength(1);
    expect(log.indexOf("saved")).toBeLessThan(log.indexOf("exit 130"));
    expect(readFileSync(join(c.dir, "saved"), "utf8")).toBe("the session");
    // The exit hook still kills whatever the session started.
    expect(log.at(-1)).toBe("children killed");
  });

  test("SIGTERM: exit 143 after saving", async () => {
    const c = start("signals");
    await c.logged("ready");
    c.proc.kill("SIGTERM");
    expect(await c.proc.exited).toBe(143);
    const log = c.log();
    expect(log.indexOf("saved")).toBeGreaterThan(-1);
    expect(log.indexOf("saved")).toBeLessThan(log.indexOf("exit 143"));
  });

  test("SIGHUP: exit 129 after saving", async () => {
    const c = start("signals");
    await c.logged("ready");
    c.proc.kill("SIGHUP");
    expect(await c.proc.exited).toBe(129);
    expect(c.log()).toContain("saved");
  });
});

describe("a crash", () => {
  for (const mode of ["crash", "rejection"] as const) {
    test(`${mode}: one line on stderr, the session saved, children killed, exit 1`, async () => {
      const c = start(mode);
      expect(await c.proc.exited).toBe(1);
      const stderr = await new Response(c.proc.stderr).text();
      expect(stderr).toMatch(/^synapse: internal error: (boom in a timer|a promise nobody awaited)\n$/);
      const log = c.log();
      expect(log).toContain("interrupted");
      expect(log).toContain("saved");
      expect(log.indexOf("saved")).toBeLessThan(log.indexOf("children killed"));
      expect(existsSync(join(c.dir, "saved"))).toBe(true);
    });
  }
});

describe("exit codes and the end that runs once", () => {
  test.each([
    ["success", 0],
    ["interrupted", 130],
    ["error_max_turns", 1],
    ["error_during_execution", 1],
  ] as const)("a result %s → %d", (subtype, code) => {
    expect(codeForResult(subtype)).toBe(code);
  });

  test.each([
    [0, false, 0],
    [143, false, 143],
    [0, true, 1],
    [130, true, 1],
  ])("code %d, save failed %p → %d", (code, failed, want) => {
    expect(codeAfterSave(code, { failed })).toBe(want);
  });

  test("endOnce: the first request's code wins, the sequence runs once, later requests share its end", async () => {
    const runs: number[] = [];
    const e = endOnce(async (code) => {
      runs.push(code);
      await Bun.sleep(10);
      return code + 1;
    });
    expect(e.begun()).toBe(false);
    void e.end(130);
    expect(e.begun()).toBe(true);
    void e.end(143);
    expect(await e.done).toBe(131);
    expect(runs).toEqual([130]);
  });
});
