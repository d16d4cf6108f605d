// The width and wrapping code moved to the runtime's width (Bun.stringWidth) and grapheme clusters.
// On random text it must agree with the old code everywhere except where the old code was wrong by
// design, and each such place is named here with its reason. Whatever differs, no row may ever be
// wider than asked, and no grapheme cluster may be split.

import { describe, expect, test } from "bun:test";
import { portableStringWidth } from "../../src/runtime/string-width.ts";
import { fitWidth, stripAnsi, textWidth, wrapLine } from "../../src/render/text-width.ts";
import * as legacy from "./legacy-text-width.ts";

const PLAIN = ["a", "b", " ", " ", "x", "1", "-", "é", "ß", "\t"];
const WIDE = ["中", "文", "한", "ｶ", "🙂", "🚀"];
// Each class: what it is, and why the old code measured it wrong.
const CLASSES: Record<string, { samples: string[]; why: string }> = {
  zwj: { samples: ["👨‍👩‍👧", "🏳️‍🌈"], why: "a ZWJ sequence is one two-column glyph; code points counted each part" },
  skin: {
    samples: ["👍🏽", "🏽"],
    why: "a skin-tone modifier joins the emoji before it (one glyph); alone it is wide",
  },
  vs16: { samples: ["❤️", "☺️"], why: "VS16 asks for emoji presentation: two columns, not one" },
  flag: { samples: ["🇫🇷", "🇯🇵"], why: "two regional indicators are one flag of two columns" },
  combining: { samples: ["é", "ñ"], why: "a combining mark after a letter stays with it (never split)" },
  softHyphen: { samples: ["\u00ad"], why: "a soft hyphen is invisible unless a line breaks there" },
  format: { samples: ["\u200e", "\u200f", "\u2060"], why: "direction marks and word joiners take no column" },
  ansiOther: { samples: ["\x1b]8;;https://x\x07link\x1b]8;;\x07"], why: "an OSC 8 hyperlink's text is visible" },
};
const COLOURS = ["\x1b[31m", "\x1b[0m", "\x1b[1;32m", "\x1b[m"];

function rng(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

function randomLine(rnd: (n: number) => number, classes: string[]): string {
  let out = "";
  const length = 1 + rnd(40);
  for (let i = 0; i < length; i++) {
    const pick = rnd(10);
    if (pick < 6) out += PLAIN[rnd(PLAIN.length)];
    else if (pick < 8) out += WIDE[rnd(WIDE.length)];
    else if (pick < 9) out += COLOURS[rnd(COLOURS.length)];
    else if (classes.length) {
      const c = CLASSES[classes[rnd(classes.length)]!]!;
      out += c.samples[rnd(c.samples.length)];
    }
  }
  return out.replace(/\t/g, "    ");
}

const graphemes = (s: string) =>
  [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(s)].map((g) => g.segment);

describe("text width: the runtime's measure against the old code point tables", () => {
  test("plain, wide and coloured text: width and wrapping agree with the old code on 2,000 lines", () => {
    const rnd = rng(22);
    let overflowed = 0;
    for (let i = 0; i < 2000; i++) {
      const line = randomLine(rnd, []);
      expect(textWidth(line)).toBe(legacy.textWidth(line));
      const width = 1 + rnd(30);
      const old = legacy.wrapLine(line, width);
      // The one deliberate difference: after breaking at a space the old code could still overflow
      // (a wide character after the break did not fit either); the new code breaks again.
      if (old.some((row) => legacy.textWidth(row) > width)) overflowed++;
      else expect(wrapLine(line, width)).toEqual(old);
    }
    expect(overflowed).toBeLessThan(200);
  });

  for (const [name, { why }] of Object.entries(CLASSES)) {
    test(`${name}: differs only where ${why}; rows never overflow, clusters never split`, () => {
      const rnd = rng(name.length * 7919);
      let differed = 0;
      for (let i = 0; i < 500; i++) {
        const line = randomLine(rnd, [name]);
        const width = 2 + rnd(30);
        const rows = wrapLine(line, width);
        for (const row of rows) expect(textWidth(row)).toBeLessThanOrEqual(width);
        // Cluster for cluster, the rows hold the line (the spaces a break eats and colour resets aside).
        const clusters = (s: string) => graphemes(stripAnsi(s)).filter((g) => g !== " ");
        expect(rows.flatMap(clusters)).toEqual(clusters(line));
        const oldRows = legacy.wrapLine(line, width);
        if (textWidth(line) !== legacy.textWidth(line) || JSON.stringify(rows) !== JSON.stringify(oldRows)) differed++;
      }
      // The class is really one the old code measured or wrapped differently (else the test says nothing).
      expect(differed).toBeGreaterThan(0);
    });
  }

  test("the Deno fallback measures like Bun.stringWidth on every sample and on random lines", () => {
    const all = [...PLAIN, ...WIDE, ...Object.values(CLASSES).flatMap((c) => c.samples), "a\x1b[31mb\x1b[0m"];
    for (const s of all) expect([s, portableStringWidth(s)]).toEqual([s, Bun.stringWidth(s)]);
    const rnd = rng(9);
    for (let i = 0; i < 1000; i++) {
      const line = randomLine(rnd, Object.keys(CLASSES));
      expect([line, portableStringWidth(line)]).toEqual([line, Bun.stringWidth(line)]);
    }
  });

  test("fitWidth cuts on a cluster boundary and within the width", () => {
    for (const s of ["👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", "ab👍🏽cd👍🏽ef", "🇫🇷🇯🇵🇫🇷"]) {
      for (let w = 2; w < 8; w++) {
        const cut = fitWidth(s, w);
        expect(textWidth(cut)).toBeLessThanOrEqual(w);
        expect(graphemes(cut.replace(/…$/, "")).every((g) => s.includes(g))).toBe(true);
      }
    }
  });
});
