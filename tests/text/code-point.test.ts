// Cuts on character boundaries: no helper may return or index into half a surrogate pair.

import { describe, expect, test } from "bun:test";
import {
  boundaryAfter,
  boundaryBefore,
  codePointCount,
  codePointIndex,
  headUnits,
  splitsPair,
  tailUnits,
  wellFormed,
} from "../../src/text/code-point.ts";

const E = "😀"; // two UTF-16 units

describe("boundaries", () => {
  test.each<[string, number, boolean, number, number]>([
    // text, index, splits a pair, boundaryBefore, boundaryAfter
    ["", 0, false, 0, 0],
    ["abc", 1, false, 1, 1],
    [E, 0, false, 0, 0],
    [E, 1, true, 0, 2],
    [E, 2, false, 2, 2],
    [`a${E}b`, 2, true, 1, 3],
    [`a${E}b`, 3, false, 3, 3],
    [`${E}${E}`, 2, false, 2, 2],
    [`${E}${E}`, 3, true, 2, 4],
    ["\ude00x", 0, false, 0, 1], // a rolling buffer that starts with the second half of a pair
    ["\ud83dx", 1, false, 1, 1], // a lone high surrogate is not a pair to keep whole
  ])("%p at %p", (text, index, splits, before, after) => {
    expect(splitsPair(text, index)).toBe(splits);
    expect(boundaryBefore(text, index)).toBe(before);
    expect(boundaryAfter(text, index)).toBe(after);
  });
});

describe("headUnits / tailUnits", () => {
  test.each<[string, number, string, string]>([
    ["abcdef", 3, "abc", "def"],
    ["abc", 10, "abc", "abc"],
    ["abc", 0, "", ""],
    [`${E}${E}${E}`, 3, E, E],
    [`${E}${E}${E}`, 4, E + E, E + E],
    [`a${E}`, 2, "a", E],
    [`${E}a`, 2, E, "a"],
    [`${E}a`, 1, "", "a"],
  ])("%p, %p units", (text, max, head, tail) => {
    expect(headUnits(text, max)).toBe(head);
    expect(tailUnits(text, max)).toBe(tail);
  });

  test("every cut of a mixed string is well formed", () => {
    const text = `a${E}bc${E}${E}d€${E}`;
    for (let max = 0; max <= text.length; max++) {
      expect(headUnits(text, max).isWellFormed()).toBe(true);
      expect(tailUnits(text, max).isWellFormed()).toBe(true);
      expect(headUnits(text, max).length).toBeGreaterThanOrEqual(max - 1);
    }
  });
});

describe("counting characters", () => {
  test.each<[string, number]>([
    ["", 0],
    ["abc", 3],
    [E, 1],
    [`a${E.repeat(3000)}`, 3001],
    ["é€", 2],
    ["\ud83d", 1],
  ])("%p has %p", (text, count) => {
    expect(codePointCount(text)).toBe(count);
    expect(codePointIndex(text, count)).toBe(text.length);
  });

  test("codePointIndex counts a pair as one and stops at the end", () => {
    expect(codePointIndex(`a${E}b`, 2)).toBe(3);
    expect(codePointIndex(`a${E}b`, 1)).toBe(1);
    expect(codePointIndex("ab", 5)).toBe(2);
    expect(codePointCount(`a${E}b${E}`, 1, 4)).toBe(2);
  });
});

test("wellFormed replaces only lone surrogates", () => {
  expect(wellFormed(`ok ${E}`)).toBe(`ok ${E}`);
  expect(wellFormed("a\ud83db\ude00")).toBe("a\uFFFDb\uFFFD");
});
