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

describe("HeadTailBuffer", () => {
  const texts: Array<[string, string]> = [
    ["empty", ""],
    ["short", "hello\nworld\n"],
    ["many lines", Array.from({ length: 300 }, (_, i) => `line ${i}`).join("\n")],
    ["one long line", "x".repeat(5000)],
    ["mixed", Array.from({ length: 2000 }, (_, i) => "ab".repeat(i % 7) + "\n").join("")],
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
        for (let i = 0, step = 1; i < text.length; i += step, step = (step * 7) % 97 + 1) buf.push(text.slice(i, i + step));
        expect(buf.result()).toBe(truncateOutput(text, lines, chars));
        expect(buf.length).toBe(text.length);
      });
    }
  }
});
