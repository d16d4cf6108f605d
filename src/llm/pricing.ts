// What a request costs in dollars: per-model prices (a table, or the user's override) applied to
// the usage each response reports. Pure. Prices change; the table is a default, not a promise.

import type { PriceOverride } from "../config/config.ts";
import type { Usage } from "../protocol/message.ts";

export type { PriceOverride } from "../config/config.ts";

/** US dollars per million tokens. */
export interface Price {
  input: number;
  output: number;
  /** A prompt-cache write (Anthropic: 1.25× input; OpenAI bills none above input). */
  cacheWrite: number;
  /** A prompt-cache read (Anthropic: 0.1× input; OpenAI: a model's "cached input" price). */
  cacheRead: number;
}

type Provider = "anthropic" | "openai";

/** How each API bills the cache, as multiples of input, when only input and output are given. */
const CACHE_RATES: Record<Provider, { write: number; read: number }> = {
  anthropic: { write: 1.25, read: 0.1 },
  openai: { write: 1, read: 0.5 },
};

// Public list prices (USD per million tokens) as published in 2025. Matched by the longest prefix
// of the model id, so dated ids (claude-sonnet-4-5-20250929) find their family.
const TABLE: Array<[prefix: string, provider: Provider, input: number, output: number, cachedInput?: number]> = [
  ["claude-opus-4-5", "anthropic", 5, 25],
  ["claude-opus-4", "anthropic", 15, 75],
  ["claude-3-opus", "anthropic", 15, 75],
  ["claude-sonnet-4", "anthropic", 3, 15],
  ["claude-3-7-sonnet", "anthropic", 3, 15],
  ["claude-3-5-sonnet", "anthropic", 3, 15],
  ["claude-haiku-4-5", "anthropic", 1, 5],
  ["claude-3-5-haiku", "anthropic", 0.8, 4],
  ["claude-3-haiku", "anthropic", 0.25, 1.25],
  ["gpt-5-nano", "openai", 0.05, 0.4, 0.005],
  ["gpt-5-mini", "openai", 0.25, 2, 0.025],
  ["gpt-5", "openai", 1.25, 10, 0.125],
  ["gpt-4.1-nano", "openai", 0.1, 0.4, 0.025],
  ["gpt-4.1-mini", "openai", 0.4, 1.6, 0.1],
  ["gpt-4.1", "openai", 2, 8, 0.5],
  ["gpt-4o-mini", "openai", 0.15, 0.6, 0.075],
  ["gpt-4o", "openai", 2.5, 10, 1.25],
  ["o4-mini", "openai", 1.1, 4.4, 0.275],
  ["o3-mini", "openai", 1.1, 4.4, 0.55],
  ["o3", "openai", 2, 8, 0.5],
];

/** Rounded to a millionth of a dollar: 3 × 0.1 is 0.3, not 0.30000000000000004. */
const micro = (usd: number) => Math.round(usd * 1e6) / 1e6;

/** A price from input and output alone, with the provider's cache multiples. */
export function withCacheRates(provider: Provider, p: PriceOverride): Price {
  const rates = CACHE_RATES[provider];
  return {
    input: p.input,
    output: p.output,
    cacheWrite: p.cacheWrite ?? micro(p.input * rates.write),
    cacheRead: p.cacheRead ?? micro(p.input * rates.read),
  };
}

/**
 * The price of `model` on `provider`: the override when given, else the table's, else undefined
 * (an unknown model: tokens are shown, dollars are not).
 */
export function priceFor(provider: Provider, model: string, override?: PriceOverride): Price | undefined {
  if (override) return withCacheRates(provider, override);
  const id = model.toLowerCase();
  let best: (typeof TABLE)[number] | undefined;
  for (const row of TABLE) {
    if (row[1] === provider && id.startsWith(row[0]) && (!best || row[0].length > best[0].length)) best = row;
  }
  if (!best) return undefined;
  const [, , input, output, cachedInput] = best;
  return withCacheRates(provider, { input, output, ...(cachedInput !== undefined ? { cacheRead: cachedInput } : {}) });
}

/** Tokens by how they are billed. */
export interface BilledTokens {
  /** Prompt tokens neither read from nor written to the cache. */
  uncached: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

/** Splits a usage into its billed parts (input_tokens counts cached tokens too; see the stream parsers). */
export function billedTokens(u: Usage): BilledTokens {
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const cacheWrite = u.cache_creation_input_tokens ?? 0;
  const uncached = Math.max(0, u.input_tokens - cacheRead - cacheWrite);
  return { uncached, cacheRead, cacheWrite, output: u.output_tokens };
}

/** Dollars for one usage at one price. */
export function costOf(u: Usage, price: Price): number {
  const t = billedTokens(u);
  const input = t.uncached * price.input + t.cacheRead * price.cacheRead + t.cacheWrite * price.cacheWrite;
  return (input + t.output * price.output) / 1e6;
}

/** Adds `b` into `a`, cache fields included. */
export function addUsage(a: Usage, b: Usage): void {
  a.input_tokens += b.input_tokens;
  a.output_tokens += b.output_tokens;
  a.cache_read_input_tokens = (a.cache_read_input_tokens ?? 0) + (b.cache_read_input_tokens ?? 0);
  a.cache_creation_input_tokens = (a.cache_creation_input_tokens ?? 0) + (b.cache_creation_input_tokens ?? 0);
}

/** "$0.0123": cents and below shown with enough places to be seen. */
export function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/**
 * The status line's running spend: dollars for a priced model, else the tokens sent and received
 * ("12.3k tokens", "1.2M tokens"), else nothing before the first request.
 */
export function spendLabel(u: Usage, usd: number | undefined): string {
  if (usd !== undefined) return formatUsd(usd);
  const tokens = u.input_tokens + u.output_tokens;
  if (tokens === 0) return "";
  if (tokens < 1000) return `${tokens} tokens`;
  if (tokens < 1e6) return `${(tokens / 1e3).toFixed(1)}k tokens`;
  return `${(tokens / 1e6).toFixed(1)}M tokens`;
}

/** What `/cost` says when a model has no price. */
export const NO_PRICE_NOTE =
  'no price known for this model: set SYNAPSE_PRICE="input,output" (dollars per million tokens) ' +
  'or "price" in config.json';

/** A usage the difference of two running totals (`after` − `before`), cache fields included. */
export function usageSince(after: Usage, before: Usage): Usage {
  return {
    input_tokens: after.input_tokens - before.input_tokens,
    output_tokens: after.output_tokens - before.output_tokens,
    cache_read_input_tokens: (after.cache_read_input_tokens ?? 0) - (before.cache_read_input_tokens ?? 0),
    cache_creation_input_tokens: (after.cache_creation_input_tokens ?? 0) - (before.cache_creation_input_tokens ?? 0),
  };
}

/** The json output's `stats.cost`: tokens by how they were billed, and dollars when priced. */
export function costReport(u: Usage, price: Price | undefined) {
  const t = billedTokens(u);
  return {
    usd: price ? costOf(u, price) : null,
    uncached_input_tokens: t.uncached,
    cache_read_input_tokens: t.cacheRead,
    cache_creation_input_tokens: t.cacheWrite,
    output_tokens: t.output,
    cache_hit_rate: u.input_tokens > 0 ? t.cacheRead / u.input_tokens : 0,
  };
}
