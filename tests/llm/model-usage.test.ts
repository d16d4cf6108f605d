// modelUsageOf: Claude Code's per-model usage from a run's usage, dollars, window and output limit.
import { expect, test } from "bun:test";
import { modelUsageOf } from "../../src/llm/model-usage.ts";

const usage = { input_tokens: 1000, output_tokens: 50, cache_read_input_tokens: 700, cache_creation_input_tokens: 200 };
const facts = { model: "claude-x", usage, contextWindow: 200_000, maxOutputTokens: 8192 };

test.each([
  ["priced: dollars, no cost basis", 0.01, { costUSD: 0.01 }],
  ["no price: 0 dollars, basis unknown", null, { costUSD: 0, costBasis: "unknown" }],
] as const)("%s", (_name, usd, money) => {
  expect(modelUsageOf({ ...facts, usd })).toEqual({
    "claude-x": {
      // Input as the API counts it: neither read from nor written to the cache.
      inputTokens: 100,
      outputTokens: 50,
      cacheReadInputTokens: 700,
      cacheCreationInputTokens: 200,
      webSearchRequests: 0,
      contextWindow: 200_000,
      maxOutputTokens: 8192,
      ...money,
    },
  });
});

test("a usage without cache fields: all input uncached", () => {
  const plain = modelUsageOf({ ...facts, usage: { input_tokens: 10, output_tokens: 2 }, usd: null })["claude-x"];
  expect(plain).toMatchObject({ inputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 });
});
