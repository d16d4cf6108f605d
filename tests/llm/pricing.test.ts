// The cost model: prices by model (table, prefix match, override), usage split by how it is billed,
// dollars; and SYNAPSE_PRICE's parsing.
import { describe, expect, test } from "bun:test";
import { parsePrice } from "../../src/config/config.ts";
import { billedTokens, costOf, costReport, formatUsd, priceFor } from "../../src/llm/pricing.ts";
import type { Usage } from "../../src/protocol/message.ts";

describe("priceFor", () => {
  const cases: Array<[string, "anthropic" | "openai", string, ReturnType<typeof priceFor>]> = [
    [
      "a dated Anthropic id finds its family, cache at 1.25x and 0.1x",
      "anthropic",
      "claude-sonnet-4-5-20250929",
      { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
    ],
    [
      "the longest prefix wins (opus-4-5 over opus-4)",
      "anthropic",
      "claude-opus-4-5",
      { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
    ],
    [
      "OpenAI: the table's cached-input price, no write premium",
      "openai",
      "gpt-4.1-mini",
      { input: 0.4, output: 1.6, cacheWrite: 0.4, cacheRead: 0.1 },
    ],
    ["an unknown model has no price", "anthropic", "claude-sonnet-5-5", undefined],
    ["a model under the other provider's name is not priced by it", "openai", "claude-sonnet-4", undefined],
  ];
  for (const [name, provider, model, price] of cases)
    test(name, () => expect(priceFor(provider, model)).toEqual(price));

  test("an override wins over the table; cache prices follow the provider when not given", () => {
    expect(priceFor("anthropic", "claude-sonnet-4", { input: 2, output: 10 })).toEqual({
      input: 2,
      output: 10,
      cacheWrite: 2.5,
      cacheRead: 0.2,
    });
    expect(priceFor("openai", "anything", { input: 2, output: 10 })).toEqual({
      input: 2,
      output: 10,
      cacheWrite: 2,
      cacheRead: 1,
    });
    expect(priceFor("openai", "x", { input: 2, output: 10, cacheWrite: 3, cacheRead: 0.1 })).toEqual({
      input: 2,
      output: 10,
      cacheWrite: 3,
      cacheRead: 0.1,
    });
  });
});

describe("billing a usage", () => {
  const price = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
  const cases: Array<[string, Usage, ReturnType<typeof billedTokens>, number]> = [
    [
      "no cache fields: all input uncached",
      { input_tokens: 1_000_000, output_tokens: 0 },
      { uncached: 1_000_000, cacheRead: 0, cacheWrite: 0, output: 0 },
      3,
    ],
    [
      "reads at 0.1x",
      { input_tokens: 1_000_000, output_tokens: 0, cache_read_input_tokens: 1_000_000 },
      { uncached: 0, cacheRead: 1_000_000, cacheWrite: 0, output: 0 },
      0.3,
    ],
    [
      "writes at 1.25x",
      { input_tokens: 1_000_000, output_tokens: 0, cache_creation_input_tokens: 1_000_000 },
      { uncached: 0, cacheRead: 0, cacheWrite: 1_000_000, output: 0 },
      3.75,
    ],
    [
      "all four parts",
      {
        input_tokens: 100_000,
        output_tokens: 2_000,
        cache_read_input_tokens: 80_000,
        cache_creation_input_tokens: 15_000,
      },
      { uncached: 5_000, cacheRead: 80_000, cacheWrite: 15_000, output: 2_000 },
      (5_000 * 3 + 80_000 * 0.3 + 15_000 * 3.75 + 2_000 * 15) / 1e6,
    ],
  ];
  for (const [name, usage, billed, usd] of cases) {
    test(name, () => {
      expect(billedTokens(usage)).toEqual(billed);
      expect(costOf(usage, price)).toBeCloseTo(usd, 10);
    });
  }

  test("the json report: dollars, or null without a price; the hit rate is reads over all input", () => {
    const u = { input_tokens: 100, output_tokens: 7, cache_read_input_tokens: 90, cache_creation_input_tokens: 10 };
    expect(costReport(u, undefined)).toEqual({
      usd: null,
      uncached_input_tokens: 0,
      cache_read_input_tokens: 90,
      cache_creation_input_tokens: 10,
      output_tokens: 7,
      cache_hit_rate: 0.9,
    });
    expect(costReport(u, price).usd).toBeCloseTo((90 * 0.3 + 10 * 3.75 + 7 * 15) / 1e6, 12);
  });

  test("dollars print with cents, or four places below a dollar", () => {
    expect(formatUsd(12.345)).toBe("$12.35");
    expect(formatUsd(0.00123)).toBe("$0.0012");
  });
});

describe("SYNAPSE_PRICE", () => {
  const cases: Array<[string, ReturnType<typeof parsePrice>]> = [
    ["3,15", { input: 3, output: 15 }],
    [" 0.8 , 4 ", { input: 0.8, output: 4 }],
    ["3,15,3.75,0.3", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
    ["3", undefined],
    ["3,15,3.75", undefined],
    ["3,-1", undefined],
    ["3,1e2", undefined],
    ["$3,15", undefined],
  ];
  for (const [text, price] of cases) test(JSON.stringify(text), () => expect(parsePrice(text)).toEqual(price));
});
