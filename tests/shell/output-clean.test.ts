// Carriage returns, backspaces and escape codes, against Roo-Code's vectors (extract-text.spec.ts
// and the TerminalProcess escape tests) plus our own table.

import { describe, expect, test } from "bun:test";
import stripAnsi from "strip-ansi";
import { cleanLines, processBackspaces, processCarriageReturns, stripEscapes } from "../../src/shell/output-clean.ts";
import { expectedOf, inputOf, label, loadVectors } from "./vectors.ts";

// Deliberate difference (README "Terminal output"): where Roo-Code's result holds half a
// surrogate pair, Synapse keeps the character whole or blanks it; a lone surrogate makes the model
// API reject the whole request.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("processCarriageReturns (Roo-Code vectors)", () => {
  for (const file of ["processCarriageReturns.json", "derived/processCarriageReturns.derived.json"]) {
    loadVectors(file).forEach((v, i) => {
      if (LONE_SURROGATE.test(expectedOf(v))) {
        test.skip(`${file} ${label(v, i)} (Synapse never splits a surrogate pair)`, () => {});
        return;
      }
      test(`${file} ${label(v, i)}`, () => expect(processCarriageReturns(inputOf(v))).toBe(expectedOf(v)));
    });
  }

  test("our version of the skipped case: an emoji starting right at the cut stays whole", () => {
    expect(processCarriageReturns("ab😀cd\rxy")).toBe("xy😀cd");
  });
});

describe("processBackspaces (Roo-Code vectors)", () => {
  // Deliberate difference (README "Terminal output"): Roo-Code lets a backspace at the start of a
  // line delete the previous "\n"; a terminal cursor never moves back into the previous line.
  const crossesNewline = new Set(["backspace deletes a preceding newline too (destructive, crosses lines)"]);
  for (const file of ["processBackspaces.json", "derived/processBackspaces.derived.json"]) {
    loadVectors(file).forEach((v, i) => {
      if (crossesNewline.has(v.name)) {
        test.skip(`${file} ${label(v, i)} (Synapse keeps the newline)`, () => {});
        return;
      }
      if (LONE_SURROGATE.test(expectedOf(v))) {
        test.skip(`${file} ${label(v, i)} (Synapse never splits a surrogate pair)`, () => {});
        return;
      }
      test(`${file} ${label(v, i)}`, () => expect(processBackspaces(inputOf(v))).toBe(expectedOf(v)));
    });
  }

  test("our version of the skipped case: the newline stays", () => {
    expect(processBackspaces("ab\n\bcd")).toBe("ab\ncd");
  });

  test("our version of the other skipped case: half an erased emoji is blank, as on a terminal", () => {
    expect(processBackspaces("x😀\by")).toBe("x y");
    expect(processBackspaces("x😀\b\by")).toBe("xy");
    expect(processBackspaces("x😀\b\b\by")).toBe("y");
  });
});

describe("escape sequences (Roo-Code TerminalProcess vectors)", () => {
  // Roo-Code (2026) keeps colour codes for its webview; the model cannot see colours, so Synapse
  // removes them too (as Roo-Code did before, with strip-ansi). The check: everything Roo-Code
  // removes is removed, and the text left is the same once colours are gone.
  for (const file of [
    "TerminalProcess.removeVSCodeShellIntegration.json",
    "TerminalProcess.stripCursorSequences.json",
  ]) {
    loadVectors(file).forEach((v, i) => {
      test(`${file} ${label(v, i)}`, () => expect(stripEscapes(v.input)).toBe(stripAnsi(v.expected)));
    });
  }
});

describe("cleanLines", () => {
  test.each([
    ["plain text", "a\nb\n", "a\nb\n"],
    ["colours", "\x1b[31mred\x1b[0m \x1b[1;32mgreen\x1b[0m\n", "red green\n"],
    ["progress bar keeps its final state", "  0%\r 50%\r100%\ndone\n", "100%\ndone\n"],
    ["npm-style clear line + CR", "\x1b[2K\rstep 1\x1b[2K\rstep 2\n", "step 2\n"],
    ["CRLF line endings", "one\r\ntwo\r\n", "one\ntwo\n"],
    ["spinner with backspaces", "wait |\b/\b-\b\\\bok\n", "wait ok\n"],
    ["backspace never crosses a line", "x\n\b\by\n", "x\ny\n"],
    ["OSC window title", "\x1b]0;title\x07text\n", "text\n"],
    ["shorter overwrite keeps the tail", "12345\rab\n", "ab345\n"],
    ["no trailing newline", "abc\rX", "Xbc"],
  ])("%s", (_name, input, expected) => {
    expect(cleanLines(input)).toBe(expected);
  });

  test("random mixes of emoji, carriage returns and backspaces stay well formed", () => {
    const pieces = ["😀", "🚀x", "ab", "\r", "\b", "\n", "é", "\x1b[31m"];
    let seed = 7;
    for (let round = 0; round < 2000; round++) {
      let text = "";
      for (let i = 0; i < 12; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        text += pieces[(seed >>> 16) % pieces.length];
      }
      expect(cleanLines(text).isWellFormed()).toBe(true);
    }
  });

  test("escapes are removed before carriage returns are applied", () => {
    // The colour code must not count as text the "\r" overwrites.
    expect(cleanLines("\x1b[32mlong line\x1b[0m\rshort")).toBe("shortline");
  });
});
