// What /cost and /status show about the session so far, counted from the agent's events: tokens
// and dollars over its runs, the context the last request carried, the sub-agents running now.

import { addUsage } from "../llm/pricing.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { Usage } from "../protocol/message.ts";

function clearUsage(u: Usage): void {
  u.input_tokens = 0;
  u.output_tokens = 0;
  u.cache_read_input_tokens = 0;
  u.cache_creation_input_tokens = 0;
}

export class SessionCounters {
  readonly usage: Usage = { input_tokens: 0, output_tokens: 0 };
  costUsd = 0;
  /** False once a run's model had no price: the session's dollars are then unknown. */
  costKnown = true;
  contextTokens: number;
  readonly tasksRunning = new Set<string>();
  /** The running submission's turns so far (sub-agents' too), until its result counts them all. */
  readonly running: Usage = { input_tokens: 0, output_tokens: 0 };

  constructor(contextTokens: number) {
    this.contextTokens = contextTokens;
  }

  observe(event: AgentEvent): void {
    if (event.type === "assistant" && event.message.usage) {
      const u = event.message.usage;
      addUsage(this.running, u);
      if (!event.parent_tool_use_id) this.contextTokens = u.input_tokens + u.output_tokens;
    } else if (event.type === "task_start") this.tasksRunning.add(event.id);
    else if (event.type === "task_end") this.tasksRunning.delete(event.id);
    else if (event.type === "compact_boundary") this.contextTokens = event.tokens_after;
    else if (event.type === "result") {
      this.tasksRunning.clear();
      clearUsage(this.running);
      addUsage(this.usage, event.result.usage);
      if (event.result.total_cost_usd === undefined) this.costKnown = false;
      else this.costUsd += event.result.total_cost_usd;
    }
  }

  /** Another session took over (/clear, /resume): its counts start again from its own context. */
  reset(contextTokens: number): void {
    clearUsage(this.usage);
    clearUsage(this.running);
    this.costUsd = 0;
    this.costKnown = true;
    this.contextTokens = contextTokens;
  }
}
