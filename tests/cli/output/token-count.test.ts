// Table test: one token formatter for every condense line, so `/compact`'s `compacted:` line and the
// automatic condense's `context … tokens` line read the same for the same counts.

import { describe, expect, test } from "bun:test";
import { compactedLine } from "../../../src/cli/command-report.ts";
import { compactNotice } from "../../../src/cli/output/notices.ts";
import { formatTokens } from "../../../src/cli/output/token-count.ts";

describe("formatTokens", () => {
  const cases: Array<[number, string]> = [
    [0, "0"],
    [950, "950"],
    [999, "999"],
    [1000, "1k"],
    [1049, "1k"],
    [1050, "1.1k"],
    [4900, "4.9k"],
    [4949, "4.9k"],
    [4950, "5k"],
    [9400, "9.4k"],
    [9949, "9.9k"],
    [9950, "10k"],
    [10_000, "10k"],
    [21_300, "21k"],
    [172_400, "172k"],
    [172_500, "173k"],
    [999_499, "999k"],
    [999_500, "1M"],
    [1_000_000, "1M"],
    [1_234_567, "1.2M"],
    [12_500_000, "13M"],
  ];
  for (const [n, text] of cases) test(`${n} → ${text}`, () => expect(formatTokens(n)).toBe(text));
});

describe("both condense lines use it", () => {
  const pairs: Array<[number, number, string]> = [
    [172_400, 21_300, "172k → 21k"],
    [9_400, 4_900, "9.4k → 4.9k"],
    [160_000, 800, "160k → 800"],
    [1_050_000, 99_600, "1.1M → 100k"],
  ];
  for (const [before, after, change] of pairs) {
    test(change, () => {
      expect(compactedLine(before, after)).toBe(`compacted: ${change} tokens`);
      const notice = compactNotice({
        type: "compact_boundary",
        trigger: "auto",
        method: "summary",
        tokens_before: before,
        tokens_after: after,
        messages_replaced: 1,
      });
      expect(notice).toBe(`context ${change} tokens (summarised)`);
    });
  }
});
