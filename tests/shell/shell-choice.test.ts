// The pool's preference order among free shells, as a table.

import { describe, expect, test } from "bun:test";
import { chooseShell, type ShellState } from "../../src/shell/shell-choice.ts";

interface S extends ShellState {
  name: string;
}
const shell = (name: string, dir: string, taskId: string | null, opts: Partial<S> = {}): S => ({
  name,
  dir,
  taskId,
  busy: false,
  lastUsed: 0,
  ...opts,
});

function pick(shells: S[], taskId: string, dir: string, canSpawn = true): string {
  const c = chooseShell(shells, taskId, dir, canSpawn);
  return c.kind === "reuse" ? `${c.shell.name} (${c.rule})` : c.kind;
}

describe("chooseShell", () => {
  test.each<[string, S[], string, string, boolean, string]>([
    ["no shells: spawn", [], "t1", "/p", true, "spawn"],
    ["own shell in the dir (a)", [shell("A", "/p", "t1")], "t1", "/p", true, "A (a)"],
    ["own shell in a child dir (b)", [shell("A", "/p/src", "t1")], "t1", "/p", true, "A (b)"],
    ["own shell in a parent dir (b)", [shell("A", "/", "t1")], "t1", "/p", true, "A (b)"],
    ["(a) beats (b)", [shell("B", "/p/src", "t1", { lastUsed: 9 }), shell("A", "/p", "t1")], "t1", "/p", true, "A (a)"],
    [
      "(b) beats an unbound shell in the dir (c)",
      [shell("C", "/p", null, { lastUsed: 9 }), shell("B", "/p/x", "t1")],
      "t1",
      "/p",
      true,
      "B (b)",
    ],
    ["unbound shell in the dir (c)", [shell("C", "/p", null)], "t1", "/p", true, "C (c)"],
    [
      "(c) beats unbound related (d)",
      [shell("D", "/p/x", null, { lastUsed: 9 }), shell("C", "/p", null)],
      "t1",
      "/p",
      true,
      "C (c)",
    ],
    ["unbound related (d)", [shell("D", "/p/x", null)], "t1", "/p", true, "D (d)"],
    [
      "another task's shell is not taken while a new one can be made",
      [shell("X", "/p", "t2")],
      "t1",
      "/p",
      true,
      "spawn",
    ],
    ["own shell in an unrelated dir: a new one (e)", [shell("U", "/q", "t1")], "t1", "/p", true, "spawn"],
    ["/p/bc is not related to /p/b", [shell("U", "/p/bc", null)], "t1", "/p/b", true, "spawn"],
    ["busy shells are never chosen", [shell("A", "/p", "t1", { busy: true })], "t1", "/p", true, "spawn"],
    ["at the cap, all busy: wait", [shell("A", "/p", "t1", { busy: true })], "t1", "/p", false, "wait"],
    [
      "at the cap: least recently used unbound shell (f)",
      [shell("N", "/q", null, { lastUsed: 5 }), shell("O", "/r", null, { lastUsed: 1 })],
      "t1",
      "/p",
      false,
      "O (f)",
    ],
    [
      "at the cap: unbound before another task's (f)",
      [shell("X", "/q", "t2", { lastUsed: 0 }), shell("U", "/r", null, { lastUsed: 5 })],
      "t1",
      "/p",
      false,
      "U (f)",
    ],
    [
      "at the cap: another task's idle shell rather than waiting (f)",
      [shell("X", "/q", "t2")],
      "t1",
      "/p",
      false,
      "X (f)",
    ],
    [
      "most recently used wins within a rule",
      [shell("Old", "/p", "t1", { lastUsed: 1 }), shell("New", "/p", "t1", { lastUsed: 2 })],
      "t1",
      "/p",
      true,
      "New (a)",
    ],
  ])("%s", (_name, shells, taskId, dir, canSpawn, expected) => {
    expect(pick(shells, taskId, dir, canSpawn)).toBe(expected);
  });
});
