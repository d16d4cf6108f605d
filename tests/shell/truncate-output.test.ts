// Head-and-tail truncation, against Roo-Code's truncateOutput vectors, and the streaming buffer
// that must give the same result.

import { describe, expect, test } from "bun:test";
import { HeadTailBuffer, truncateOutput } from "../../src/shell/truncate-output.ts";
import { label, loadVectors, undef } from "./vectors.ts";

describe("truncateOutput (Roo-Code vectors)", () => {
  for (const file of ["truncateOutput.json", "derived/truncateOutput.derived.json"]) {
    loadVectors(file).forEach((v, i) => {
      test(`${file} ${label(v, i)}`, () => {
        expect(truncateOutput(v.input, undef(v.args?.lineLimit), undef(v.args?.characterLimit))).toBe(v.expected);
      });
    });
  }
});

describe("cuts keep surrogate pairs whole", () => {
  const E = "😀";
  test.each<[string, string, number, string]>([
    // Limit 10: head 2 units, tail 8. An emoji across either cut is left out whole.
    ["pairs on both cuts", E.repeat(10), 10, `${E}\n[...10 characters omitted...]\n${E.repeat(4)}`],
    ["a pair across the head cut", `a${E.repeat(10)}`, 10, `a\n[...12 characters omitted...]\n${E.repeat(4)}`],
    ["a pair across the tail cut", `${E.repeat(10)}b`, 10, `${E}\n[...12 characters omitted...]\n${E.repeat(3)}b`],
  ])("%s", (_name, text, limit, expected) => {
    expect(truncateOutput(text, undefined, limit)).toBe(expected);
  });

  test("the Bash repro: 40 000 emoji and a newline", () => {
    const out = truncateOutput(`${E.repeat(40_000)}\n`, 500, 30_000);
    expect(out.isWellFormed()).toBe(true);
    expect(out).toBe(`${E.repeat(3000)}\n[...50002 characters omitted...]\n${E.repeat(11_999)}\n`);
  });
});

describe("HeadTailBuffer", () => {
  const texts: Array<[string, string]> = [
    ["empty", ""],
    ["short", "hello\nworld\n"],
    ["many lines", Array.from({ length: 300 }, (_, i) => `line ${i}`).join("\n")],
    ["one long line", "x".repeat(5000)],
    ["mixed", Array.from({ length: 2000 }, (_, i) => `${"ab".repeat(i % 7)}\n`).join("")],
    ["emoji", "😀".repeat(20_001)],
    ["emoji after one unit", `a${"😀".repeat(20_000)}\n`],
  ];
  for (const [name, text] of texts) {
    for (const [lines, chars] of [
      [10, 100],
      [50, 1000],
      [500, 30000],
      [3, 7],
    ]) {
      test(`${name}, ${lines} lines / ${chars} chars: same as truncateOutput on the whole text`, () => {
        const buf = new HeadTailBuffer(lines!, chars!);
        // Uneven pieces, as a stream delivers them.
        for (let i = 0, step = 1; i < text.length; i += step, step = ((step * 7) % 97) + 1)
          buf.push(text.slice(i, i + step));
        expect(buf.result()).toBe(truncateOutput(text, lines, chars));
        expect(buf.length).toBe(text.length);
        expect(buf.result().isWellFormed()).toBe(true);
      });
    }
  }
});
