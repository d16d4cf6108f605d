// A result's `modelUsage` entry, as Claude Code writes it and Agent SDK programs read it
// (SDKResultMessage.modelUsage); built by llm/model-usage.ts.

export interface ModelUsage {
  /** Input tokens neither read from nor written to the prompt cache (the API's own `input_tokens`). */
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  webSearchRequests: number;
  /** Dollars; 0 with costBasis "unknown" for a model without a price. */
  costUSD: number;
  contextWindow: number;
  maxOutputTokens: number;
  costBasis?: "unknown";
}
