// `--max-budget-usd`: the run stops before a request whose cost would take it past the budget.
// The next request's cost is its input, estimated before sending: what the last request carried is
// priced as a cache read, what is new since as a cache write (its output is not known in advance).
// What the run spent counts its own turns and every other running total it was given (summary
// calls, sub-agents), from where each stood when the run began.

import type { Config } from "../config/config.ts";
import { type Price, costOf, priceFor, usageSince } from "../llm/pricing.ts";
import type { Provider } from "../llm/types.ts";
import { UsageError } from "../protocol/errors.ts";
import type { Usage } from "../protocol/message.ts";

export const BUDGET_STOP = "error_max_budget_usd";

/** The dollars one request of `tokens` prompt tokens would cost, given the last one carried `cached`. */
export function nextRequestUsd(tokens: number, cached: number, price: Price): number {
  const read = Math.min(tokens, cached);
  const usage = {
    input_tokens: tokens,
    output_tokens: 0,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: tokens - read,
  };
  return costOf(usage, price);
}

/** A running total of tokens spent beside the run's own turns, and where it stood as the run began. */
interface OtherSpend {
  now: () => Usage;
  before: Usage;
}

export class Budget {
  private lastInput = 0;

  private constructor(
    readonly limitUsd: number,
    private readonly price: Price,
    private readonly others: OtherSpend[],
  ) {}

  /**
   * The run's budget, or undefined without one; a budget for a model with no price is a usage error.
   * `others` are running totals (summary calls, sub-agents) whose growth from now on the run pays.
   */
  static of(config: Config, provider: Provider, others: Array<() => Usage>): Budget | undefined {
    if (config.maxBudgetUsd === undefined) return undefined;
    const price = priceFor(provider.name, provider.model, config.price);
    if (!price) {
      const how = 'set SYNAPSE_PRICE="input,output" (dollars per million tokens)';
      throw new UsageError(`--max-budget-usd needs a price for ${provider.model}: ${how}`);
    }
    const spend = others.map((now) => ({ now, before: { ...now() } }));
    return new Budget(config.maxBudgetUsd, price, spend);
  }

  /** Dollars spent in this run: its turns' usage, and what the other totals grew by since it began. */
  spent(turns: Usage): number {
    let usd = costOf(turns, this.price);
    for (const o of this.others) usd += costOf(usageSince(o.now(), o.before), this.price);
    return usd;
  }

  /** Dollars left of the budget (never below 0). */
  remaining(turns: Usage): number {
    return Math.max(0, this.limitUsd - this.spent(turns));
  }

  /** Whether a request of `tokens` prompt tokens would take the run past its budget. */
  wouldPass(tokens: number, turns: Usage): boolean {
    return this.spent(turns) + nextRequestUsd(tokens, this.lastInput, this.price) > this.limitUsd;
  }

  /** The prompt tokens the last answered request carried (what the next one finds in the cache). */
  noteSent(inputTokens: number): void {
    this.lastInput = inputTokens;
  }

  stopMessage(spentUsd: number): string {
    const spent = `$${spentUsd.toFixed(4)} spent`;
    return `stopped before the next request: it would pass the budget of $${this.limitUsd} (${spent})`;
  }
}
