// When a prune pays before the threshold: the context's growth a turn is tracked, and once it has
// grown past its size after the last condense by pruneGap (the re-write a prune causes against the
// reads it saves), old outputs are cleared down to the low-water mark in one step, so early
// messages change rarely.

import type { Price } from "../llm/pricing.ts";
import type { Message } from "../protocol/message.ts";
import { type CacheRates, pruneGap, selectPrune } from "./prune.ts";
import { estimateTokens } from "./token-estimate.ts";

/** Anthropic's cache prices as multiples of input: also assumed for a model without a price. */
const ANTHROPIC_RATES: CacheRates = { write: 1.25, read: 0.1 };

/** The prompt cache's write and read prices as multiples of input, for a model's price. */
export function cacheRatesFor(price: Price | undefined): CacheRates {
  return price && price.input > 0
    ? { write: price.cacheWrite / price.input, read: price.cacheRead / price.input }
    : ANTHROPIC_RATES;
}

export class PruneSchedule {
  /** Prompt tokens right after the last condense (or of the first request); the growth a turn since. */
  private afterCondense: number | undefined;
  private lastTokens: number | undefined;
  private growth = 0;

  /** Tracks how fast the context grows a turn (a moving average of the growth between requests). */
  noteGrowth(tokens: number): void {
    const grew = tokens - (this.lastTokens ?? tokens);
    if (grew > 0) this.growth = this.growth === 0 ? grew : this.growth * 0.8 + grew * 0.2;
    this.lastTokens = tokens;
    this.afterCondense ??= tokens;
  }

  /** A condense (of any kind) left the context at `tokens`. */
  condensed(tokens: number): void {
    this.afterCondense = tokens;
  }

  /**
   * The prune due now for `context` of `tokens` (copies of the messages it changes), keeping
   * `keepTokens` of the newest outputs; undefined when it would not yet pay for its re-write.
   */
  due(context: Message[], tokens: number, keepTokens: number, rates: CacheRates): Map<string, Message> | undefined {
    if (this.afterCondense === undefined || this.growth <= 0) return undefined;
    const pruned = selectPrune(context, keepTokens);
    if (!pruned.size) return undefined;
    // What the prune makes the cache write again: everything from the first message it changes.
    const first = context.findIndex((m) => pruned.has(m.id));
    const rewrite = estimateTokens(context.slice(first).map((m) => pruned.get(m.id) ?? m));
    if (tokens - this.afterCondense < pruneGap(rewrite, this.growth, rates)) return undefined;
    return pruned;
  }
}
