// A result's `modelUsage`, as Claude Code writes it and Agent SDK programs read it
// (SDKResultMessage.modelUsage): per model, the input tokens by how they were billed (`inputTokens`
// is the uncached part, as the API's own usage counts it), output tokens, dollars, and the model's
// window and output limit. A model without a price has costUSD 0 and costBasis "unknown".

import type { Usage } from "../protocol/message.ts";
import type { ModelUsage } from "../protocol/model-usage.ts";
import { billedTokens } from "./pricing.ts";

export interface ModelFacts {
  model: string;
  usage: Usage;
  /** Dollars, or null for a model without a price. */
  usd: number | null;
  contextWindow: number;
  maxOutputTokens: number;
}

/** One run's usage under the model it ran on (its summary calls and sub-agents run the same model). */
export function modelUsageOf(facts: ModelFacts): Record<string, ModelUsage> {
  const t = billedTokens(facts.usage);
  return {
    [facts.model]: {
      inputTokens: t.uncached,
      outputTokens: t.output,
      cacheReadInputTokens: t.cacheRead,
      cacheCreationInputTokens: t.cacheWrite,
      webSearchRequests: 0,
      costUSD: facts.usd ?? 0,
      contextWindow: facts.contextWindow,
      maxOutputTokens: facts.maxOutputTokens,
      ...(facts.usd === null ? { costBasis: "unknown" as const } : {}),
    },
  };
}
