// `get_context_usage`: the answer the SDK's getContextUsage() returns, from what Synapse knows for
// sure: the last main-agent turn's prompt and answer tokens (the provider's count, so everything
// the model saw, system prompt, tools and messages together, and what it wrote, which the next
// prompt holds; after a condense, its estimate) and the model's context window. Claude Code splits
// the use by category with its token-count API; Synapse has no such split, so it reports one
// "used" row and the free space, and leaves out the per-category lists it cannot fill (memory
// files, MCP tools, skills, slash commands) rather than sending zeros that would be false.

export interface ContextFacts {
  /** `provider/model`. */
  model: string;
  /** The last turn's prompt and answer tokens (0 before the first). */
  contextTokens: number;
  contextWindow: number;
}

export function contextUsage(facts: ContextFacts): Record<string, unknown> {
  const max = facts.contextWindow;
  const used = Math.min(facts.contextTokens, max);
  return {
    categories: [
      { name: "Used (system prompt, tools, messages)", tokens: used, color: "promptBorder", kind: "used" },
      { id: "free_space", name: "Free space", tokens: max - used, color: "promptBorder", kind: "free" },
    ],
    totalTokens: facts.contextTokens,
    maxTokens: max,
    rawMaxTokens: max,
    percentage: max > 0 ? Math.round((facts.contextTokens / max) * 1000) / 10 : 0,
    gridRows: [],
    model: facts.model,
    // Synapse has no agent definitions: the empty list is the true one.
    agents: [],
  };
}
