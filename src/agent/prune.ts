// Pruning: the cheapest condense. Old tool outputs in the context are replaced by a one-line note
// naming what was cleared; no model call, and the archive keeps every output whole.

import type { Message, ToolResultBlock, ToolUseBlock } from "../protocol/message.ts";
import { CHARS_PER_TOKEN, estimateTextTokens } from "./token-estimate.ts";

/** Tool outputs newer than this many tokens (counted from the newest) are never pruned. */
export const PRUNE_KEEP_TOKENS = 40_000;
/** Outputs shorter than this stay: their note would save nothing. */
const MIN_PRUNE_CHARS = 400;

function resultText(block: ToolResultBlock): string {
  return typeof block.content === "string" ? block.content : block.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

function describeCall(call: ToolUseBlock | undefined): string {
  if (!call) return "a tool call";
  const input = call.input && typeof call.input === "object" ? (call.input as Record<string, unknown>) : {};
  const arg = input.command ?? input.path ?? input.pattern ?? "";
  const shown = String(arg).replace(/\s+/g, " ").slice(0, 80);
  return shown ? `${call.name} ${JSON.stringify(shown)}` : call.name;
}

export function prunedNote(call: ToolUseBlock | undefined, chars: number): string {
  return `[output of ${describeCall(call)} cleared from the context to save space (${chars} characters); the session archive keeps it]`;
}

/**
 * The messages of `context` whose old tool outputs are to be cleared, as replacement copies (same
 * id), keeping the newest `keepTokens` of tool output untouched. Pure.
 */
export function selectPrune(context: readonly Message[], keepTokens = PRUNE_KEEP_TOKENS): Map<string, Message> {
  const out = new Map<string, Message>();
  let kept = 0;
  for (let i = context.length - 1; i >= 0; i--) {
    const m = context[i]!;
    if (m.role !== "user" || !m.content.some((b) => b.type === "tool_result")) continue;
    const prev = context[i - 1];
    const calls = new Map<string, ToolUseBlock>();
    for (const b of prev?.content ?? []) if (b.type === "tool_use") calls.set(b.id, b);
    let changed = false;
    // Newest block first, so the budget goes to the latest outputs.
    const content = [...m.content];
    for (let j = content.length - 1; j >= 0; j--) {
      const block = content[j]!;
      if (block.type !== "tool_result") continue;
      const text = resultText(block);
      const tokens = estimateTextTokens(text);
      if (kept + tokens <= keepTokens || text.length < MIN_PRUNE_CHARS || text.startsWith("[output of ")) {
        kept += tokens;
        continue;
      }
      kept = keepTokens; // everything older is pruned too
      content[j] = { ...block, content: prunedNote(calls.get(block.tool_use_id), text.length) };
      changed = true;
    }
    if (changed) out.set(m.id, { ...m, content });
  }
  return out;
}

/** Tokens a prune saves: what the cleared outputs held minus their notes. */
export function prunedSavings(context: readonly Message[], pruned: Map<string, Message>): number {
  let chars = 0;
  for (const m of context) {
    const copy = pruned.get(m.id);
    if (!copy) continue;
    for (let j = 0; j < m.content.length; j++) {
      const a = m.content[j]!;
      const b = copy.content[j]!;
      if (a.type === "tool_result" && b.type === "tool_result") chars += resultText(a).length - resultText(b).length;
    }
  }
  return Math.floor(chars / CHARS_PER_TOKEN);
}
