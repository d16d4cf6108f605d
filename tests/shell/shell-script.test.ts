// The text that crosses the bash boundary: request scripts, quoting, and the end-of-command record.

import { describe, expect, test } from "bun:test";
import { commandScript, parseRecord, quoteForShell } from "../../src/shell/shell-script.ts";

describe("quoteForShell", () => {
  test.each(["plain", "it's", "'", "a\nb", '$HOME `x` $(y) \\ "q"', "", "émoji 🚀"])(
    "%p survives bash unchanged",
    (text) => {
      const out = Bun.spawnSync(["bash", "-c", `printf %s ${quoteForShell(text)}`]).stdout.toString();
      expect(out).toBe(text);
    },
  );
});

describe("commandScript", () => {
  test("drops NUL, which bash strings cannot hold", () => {
    expect(
      commandScript({ command: "echo a\0b", cwd: "/", fifo: "/f", clearTraps: false, resetTask: false }),
    ).toContain("'echo ab'");
  });
  test("clears traps and resets the task only when asked", () => {
    const plain = commandScript({ command: "true", cwd: "/", fifo: "/f", clearTraps: false, resetTask: false });
    const both = commandScript({ command: "true", cwd: "/", fifo: "/f", clearTraps: true, resetTask: true });
    expect(plain).not.toContain("__synapse_untrap");
    expect(plain).not.toContain("__synapse_reset");
    expect(both).toContain("__synapse_untrap");
    expect(both).toContain("__synapse_reset");
  });
});

describe("parseRecord", () => {
  type Record = { status: number; limitsLost: boolean; jobs: number[] | null; pwd: string };
  test.each<[string, string, Record]>([
    ["no jobs started", "0\n\x02/home/u", { status: 0, limitsLost: false, jobs: null, pwd: "/home/u" }],
    ["jobs listed", "3\n\x03123\n456\n\x02/tmp", { status: 3, limitsLost: false, jobs: [123, 456], pwd: "/tmp" }],
    ["jobs all finished", "0\n\x03\x02/", { status: 0, limitsLost: false, jobs: [], pwd: "/" }],
    ["a directory with a newline", "1\n\x02/a\nb", { status: 1, limitsLost: false, jobs: null, pwd: "/a\nb" }],
    ["no directory (PWD unset)", "0\n\x02", { status: 0, limitsLost: false, jobs: null, pwd: "" }],
    ["limits lost", "0\n\x04\x02/", { status: 0, limitsLost: true, jobs: null, pwd: "/" }],
    ["limits lost, with jobs", "0\n\x04\x037\n\x02/", { status: 0, limitsLost: true, jobs: [7], pwd: "/" }],
  ])("%s", (_name, body, expected) => {
    expect(parseRecord(body)).toEqual(expected);
  });
});
