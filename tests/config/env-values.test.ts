// The strict parsers of environment values (config/env-values.ts): a value is taken exactly as
// written or refused with a sentence naming the variable; nothing falls back silently.
import { expect, test } from "bun:test";
import { bool, dollars, int, oneOf, parsePrice, percent } from "../../src/config/env-values.ts";

const run = (f: () => unknown): unknown => {
  try {
    return f();
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
};

test.each<[string | undefined, number, number | undefined, unknown]>([
  [undefined, 5, undefined, 5],
  ["", 5, undefined, 5],
  ["12", 5, undefined, 12],
  ["0", 5, undefined, 0],
  ["0", 5, 1, 'error: N must be a whole number >= 1 (got "0")'],
  ["1e3", 5, undefined, 'error: N must be a whole number >= 0 (got "1e3")'],
  [" 7 ", 5, undefined, 'error: N must be a whole number >= 0 (got " 7 ")'],
  ["0x10", 5, undefined, 'error: N must be a whole number >= 0 (got "0x10")'],
  ["-1", 5, undefined, 'error: N must be a whole number >= 0 (got "-1")'],
  ["9007199254740993", 5, undefined, 'error: N must be a whole number >= 0 (got "9007199254740993")'],
])("int N=%p (fallback %p, min %p) → %p", (raw, fallback, min, want) => {
  expect(run(() => int({ N: raw }, "N", fallback, min))).toEqual(want);
});

test("int with a maximum says the range", () => {
  expect(run(() => int({ N: "11" }, "N", 1, 0, 10))).toBe('error: N must be a whole number from 0 to 10 (got "11")');
});

test.each<[string, unknown]>([
  ["1", 1],
  ["100", 100],
  ["0", 'error: P must be a whole number >= 1 (got "0")'],
  ["101", 'error: P must be a percentage from 1 to 100 (got "101")'],
])("percent %p → %p", (raw, want) => {
  expect(run(() => percent({ P: raw }, "P", 80))).toEqual(want);
});

test.each<[string | undefined, unknown]>([
  [undefined, true],
  ["1", true],
  ["YES", true],
  [" on ", true],
  ["false", false],
  ["No", false],
  ["maybe", 'error: B must be 1 or 0 (got "maybe")'],
])("bool %p → %p", (raw, want) => {
  expect(run(() => bool({ B: raw }, "B", true))).toEqual(want);
});

test("oneOf takes only a listed value, and names the choices", () => {
  expect(oneOf("--pick", "b", ["a", "b"] as const)).toBe("b");
  expect(run(() => oneOf("--pick", "c", ["a", "b"]))).toBe('error: --pick must be one of a, b (got "c")');
});

test.each<[string, unknown]>([
  ["1,2", { input: 1, output: 2 }],
  [" 1.5 , 2 ", { input: 1.5, output: 2 }],
  ["1,2,3,0.1", { input: 1, output: 2, cacheWrite: 3, cacheRead: 0.1 }],
  ["1", undefined],
  ["1,2,3", undefined],
  ["1,2,3,4,5", undefined],
  ["1,-2", undefined],
  ["1,2e1", undefined],
  ["1,", undefined],
])("parsePrice %p → %p", (raw, want) => {
  expect(parsePrice(raw)).toEqual(want as ReturnType<typeof parsePrice>);
});

test("dollars are digits and one point", () => {
  expect([dollars("3"), dollars("0.25")]).toEqual([3, 0.25]);
  expect([dollars("1e2"), dollars(".5"), dollars("5."), dollars("")].every(Number.isNaN)).toBe(true);
});
