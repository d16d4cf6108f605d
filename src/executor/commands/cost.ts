// `/cost`: dollars and tokens of this session so far, the input split by how it was billed.

import { NO_PRICE_NOTE, billedTokens, formatUsd } from "../../llm/pricing.ts";
import type { Usage } from "../../protocol/message.ts";
import { type SlashCommand, say } from "../slash-command.ts";

const n = (x: number) => x.toLocaleString("en-US");

/** The lines /cost shows (and /status's cost line, shortened): dollars when priced, then tokens. */
export function costLines(usage: Usage, costUsd: number | undefined): string[] {
  const t = billedTokens(usage);
  const read = usage.input_tokens > 0 ? Math.round((t.cacheRead / usage.input_tokens) * 100) : 0;
  const split = `${n(t.cacheRead)} cache reads (${read}%), ${n(t.cacheWrite)} cache writes, ${n(t.uncached)} uncached`;
  return [
    costUsd !== undefined ? `cost:   ${formatUsd(costUsd)}` : `cost:   unknown (${NO_PRICE_NOTE})`,
    `input:  ${n(usage.input_tokens)} tokens: ${split}`,
    `output: ${n(usage.output_tokens)} tokens`,
  ];
}

export function costSummary(usage: Usage, costUsd: number | undefined): string {
  const t = billedTokens(usage);
  const dollars = costUsd !== undefined ? formatUsd(costUsd) : "no price set (SYNAPSE_PRICE)";
  const tokens =
    `${n(t.cacheRead)} cache reads, ${n(t.cacheWrite)} writes, ` + `${n(t.uncached)} uncached in, ${n(t.output)} out`;
  return `${dollars}; ${tokens}`;
}

export const costCommand: SlashCommand = {
  name: "cost",
  summary: "dollars and tokens since the session was opened here (-c: since resuming)",
  run(_args, ctx) {
    const { usage, costUsd } = ctx.facts();
    return say(...costLines(usage, costUsd));
  },
};
