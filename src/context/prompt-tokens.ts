// Counts a request's prompt tokens: an estimate of the system prompt, tools and messages, corrected
// by the usage the API last reported for a request the context still begins with.

import type { ToolSpec } from "../llm/types.ts";
import type { Message } from "../protocol/message.ts";
import { estimateTextTokens, estimateTokens } from "./token-estimate.ts";

export class PromptTokens {
  /** The system prompt's and the tools' tokens, sent with every request. */
  readonly fixed: number;
  private lastReport: { firstId: string; lastId: string; length: number; tokens: number } | undefined;

  constructor(system: string, tools: ToolSpec[]) {
    this.fixed = estimateTextTokens(system) + estimateTextTokens(JSON.stringify(tools));
  }

  /** Estimated prompt tokens of a context, corrected by the usage the last response reported. */
  of(context: readonly Message[]): number {
    const estimate = this.fixed + estimateTokens(context);
    const last = this.lastReport;
    if (
      last &&
      last.tokens > 0 &&
      context.length >= last.length &&
      context[0]?.id === last.firstId &&
      context[last.length - 1]?.id === last.lastId
    ) {
      return Math.max(estimate, last.tokens + estimateTokens(context.slice(last.length)));
    }
    return estimate;
  }

  /** The usage a response reported for the request made of `context`. */
  record(context: readonly Message[], inputTokens: number): void {
    const first = context[0];
    const last = context.at(-1);
    if (!first || !last || inputTokens <= 0) return;
    this.lastReport = {
      firstId: first.id,
      lastId: last.id,
      length: context.length,
      tokens: inputTokens,
    };
  }

  /** The context changed under the last report (a condense): estimate alone until the next one. */
  forget(): void {
    this.lastReport = undefined;
  }
}
