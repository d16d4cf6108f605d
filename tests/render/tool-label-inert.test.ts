// Labels and rows from model- or tool-controlled text: one inert line, bounded in code points.

import { expect, test } from "bun:test";
import { toolLabel, truncateOneLine } from "../../src/render/tool-label.ts";

test("escape sequences are shown, not passed on", () => {
  expect(truncateOneLine("a\x1b]52;c;eA==\x07b\x9b2J", 80)).toBe("a␛]52;c;eA==^Gb\\u009b2J");
  expect(toolLabel("Read", { path: "\x1b]0;t\x07" }, 80)).toBe("Read(␛]0;t^G)");
  expect(toolLabel("Read\x1b[2J", { path: "x" }, 80)).toBe('Read␛[2J({"path":"x"})');
});

test("a 20 kB one-line output becomes one row of exactly the limit", () => {
  const row = truncateOneLine("y".repeat(20_000), 80);
  expect(row).toBe(`${"y".repeat(79)}…`);
});

test("the cut never splits an emoji, and counts it as one character", () => {
  const row = truncateOneLine("😀".repeat(100), 10);
  expect(Array.from(row)).toHaveLength(10);
  expect(row.isWellFormed()).toBe(true);
});

test("a long unknown tool name is cut too", () => {
  expect(toolLabel("X".repeat(500), {}, 80)).toBe(`${"X".repeat(39)}…()`);
});

test("a string input (raw text of unparseable JSON) is shown as is", () => {
  expect(toolLabel("Write", 'invalid JSON: {"path":"a', 80)).toBe('Write(invalid JSON: {"path":"a)');
});
