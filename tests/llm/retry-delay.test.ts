// Table tests for the pure backoff computation: full jitter, the cap, and the server's hints.

import { expect, test } from "bun:test";
import { retryAfterMs, retryDelay, seconds } from "../../src/llm/retry.ts";
import type { RetryAfter } from "../../src/llm/llm-error.ts";

const NOW = Date.parse("2026-08-22T12:00:00Z");
const httpDate = (offsetMs: number) => new Date(NOW + offsetMs).toUTCString();

const cases: Array<[string, number, number, number, string | RetryAfter | undefined, number, number]> = [
  // name, attempt, baseMs, maxMs, hint, random(), expected
  ["first retry, middle of the range", 1, 100, 10_000, undefined, 0.5, 50],
  ["second retry doubles the range", 2, 100, 10_000, undefined, 0.5, 100],
  ["third retry, top of the range", 3, 100, 10_000, undefined, 0.999, 400],
  ["full jitter can be zero", 4, 100, 10_000, undefined, 0, 0],
  ["the range is capped at maxMs", 10, 100, 1_000, undefined, 0.5, 500],
  ["huge attempts do not overflow", 5_000, 100, 1_000, undefined, 1, 1_000],
  ["retry-after seconds", 1, 100, 10_000, "2", 0.5, 2_000],
  ["retry-after fractional seconds", 1, 100, 10_000, "0.25", 0.5, 250],
  ["retry-after zero", 3, 100, 10_000, "0", 0.5, 0],
  ["retry-after is used even above maxMs (the caller decides)", 1, 100, 1_000, "30", 0.5, 30_000],
  ["retry-after HTTP date", 1, 100, 10_000, httpDate(3_000), 0.5, 3_000],
  ["retry-after HTTP date in the past", 1, 100, 10_000, httpDate(-5_000), 0.5, 0],
  ["retry-after garbage falls back to jitter", 1, 100, 10_000, "soon", 0.5, 50],
  ["retry-after-ms", 1, 100, 10_000, { ms: "150" }, 0.5, 150],
  ["retry-after-ms wins over retry-after", 1, 100, 10_000, { ms: "150", seconds: "9" }, 0.5, 150],
  ["invalid retry-after-ms falls back to retry-after", 1, 100, 10_000, { ms: "x", seconds: "1" }, 0.5, 1_000],
  ["empty hints fall back to jitter", 2, 100, 10_000, { ms: null, seconds: "" }, 0.25, 50],
];

for (const [name, attempt, base, max, hint, random, expected] of cases) {
  test(name, () => {
    expect(retryDelay(attempt, base, max, hint, () => random, NOW)).toBe(expected);
  });
}

test("retryAfterMs says undefined when there is no usable hint", () => {
  expect(retryAfterMs(undefined)).toBeUndefined();
  expect(retryAfterMs("")).toBeUndefined();
  expect(retryAfterMs("-3")).toBeUndefined();
  expect(retryAfterMs({})).toBeUndefined();
});

test.each([
  [500, "0.5 s"],
  [100, "0.1 s"],
  [1000, "1 s"],
  [1500, "1.5 s"],
  [60_000, "60 s"],
  [300_000, "300 s"],
])("a limit of %d ms is said as %s, never rounded up to a whole second", (ms, said) => {
  expect(seconds(ms)).toBe(said);
});
