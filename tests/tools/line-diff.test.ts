// The line diff Edit and Write hand the view: shortest edit scripts, hunks with context, numbers.

import { describe, expect, test } from "bun:test";
import { diffOps, lineDiff, splitLines } from "../../src/tools/line-diff.ts";

const ops = (a: string, b: string) =>
  diffOps(splitLines(a), splitLines(b))
    .map((o) => `${o.op}${o.text}`)
    .join(" ");

describe("diffOps", () => {
  test.each([
    ["", "", ""],
    ["a", "", "-a"],
    ["", "a\nb", "+a +b"],
    ["a\nb\nc", "a\nb\nc", " a  b  c"],
    ["a\nb\nc", "a\nx\nc", " a -b +x  c"],
    ["a\nb\nc\nd\ne", "a\nc\nd\ne\nf", " a -b  c  d  e +f"],
    ["x\na\nb", "a\nb\ny", "-x  a  b +y"],
    ["a\nb\na\nb", "b\na\nb\na", "-a  b  a  b +a"],
  ])("%j → %j", (a, b, want) => {
    expect(ops(a, b)).toBe(want);
  });

  test("applying the script to the old lines gives the new ones (random texts)", () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 200; round++) {
      const a = Array.from({ length: rnd(12) }, () => "abc"[rnd(3)]!);
      const b = Array.from({ length: rnd(12) }, () => "abc"[rnd(3)]!);
      const script = diffOps(a, b);
      expect(script.filter((o) => o.op !== "+").map((o) => o.text)).toEqual(a);
      expect(script.filter((o) => o.op !== "-").map((o) => o.text)).toEqual(b);
      // Shortest: no more changes than the naive replace-everything-between-prefix-and-suffix.
      expect(script.filter((o) => o.op !== " ").length).toBeLessThanOrEqual(a.length + b.length);
    }
  });

  test("line numbers follow each side", () => {
    const script = diffOps(["a", "b", "c"], ["a", "x", "y", "c"]);
    expect(script).toEqual([
      { op: " ", text: "a", old: 1, new: 1 },
      { op: "-", text: "b", old: 2 },
      { op: "+", text: "x", new: 2 },
      { op: "+", text: "y", new: 3 },
      { op: " ", text: "c", old: 3, new: 4 },
    ]);
  });
});

describe("lineDiff", () => {
  test("changes far apart are separate hunks with three lines of context; near ones merge", () => {
    const before = `${Array.from({ length: 30 }, (_, i) => `l${i + 1}`).join("\n")}\n`;
    const far = lineDiff(before, before.replace("l5\n", "five\n").replace("l25\n", "twenty-five\n"));
    expect(far.hunks.length).toBe(2);
    expect(far.hunks[0]!.lines.map((l) => l.text)).toEqual(["l2", "l3", "l4", "l5", "five", "l6", "l7", "l8"]);
    expect(far).toMatchObject({ added: 2, removed: 2 });
    const near = lineDiff(before, before.replace("l5\n", "five\n").replace("l10\n", "ten\n"));
    expect(near.hunks.length).toBe(1);
  });
  test("a final newline is not a line; no change is no hunk", () => {
    expect(lineDiff("a\n", "a")).toEqual({ hunks: [], added: 0, removed: 0 });
  });
});
