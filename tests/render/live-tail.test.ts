// The live tail: which lines it shows, and that it erases exactly what it drew.
import { describe, expect, test } from "bun:test";
import { LiveTail, lastLines } from "../../src/render/live-tail.ts";

describe("lastLines", () => {
  test.each([
    ["a\nb\nc\nd\n", 3, ["b", "c", "d"]],
    ["a\n\n  \nb", 3, ["a", "b"]],
    ["only", 3, ["only"]],
    ["", 3, []],
    ["x\ny\n", 1, ["y"]],
  ])("%j, %d", (text, count, expected) => {
    expect(lastLines(text, count)).toEqual(expected);
  });
});

describe("LiveTail", () => {
  function tail() {
    const writes: string[] = [];
    const t = new LiveTail(
      (s) => writes.push(s),
      () => 40,
      (s) => `<${s}>`,
    );
    return { t, writes };
  }

  test("draws up to three lines, redrawing over what it drew before", () => {
    const { t, writes } = tail();
    t.update("one\n");
    t.update("two\nthree\nfour\n");
    expect(writes[0]).toBe("\r\x1b[2K  <one>");
    // One line was shown: erase it (no cursor-up), then draw the newest three.
    expect(writes[1]).toBe("\r\x1b[2K  <two>\n  <three>\n  <four>");
    t.update("five\n");
    // Three lines shown: erase the current one and two above.
    expect(writes[2]).toBe("\r\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K  <three>\n  <four>\n  <five>");
  });

  test("clear erases every drawn line, once", () => {
    const { t, writes } = tail();
    t.update("a\nb\n");
    t.clear();
    t.clear();
    expect(writes.slice(1)).toEqual(["\r\x1b[2K\x1b[1A\x1b[2K"]);
  });

  test("long lines are cut to the terminal width", () => {
    const { t, writes } = tail();
    t.update(`${"x".repeat(100)}\n`);
    expect(writes[0]!.length).toBeLessThan(50);
  });
});
