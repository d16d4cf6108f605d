// Pruning: the cheapest condense. Old tool outputs in the context are replaced by a one-line note
// naming what was cleared; no model call, and the archive keeps every output whole.

import { LARGE_OUTPUT_CHARS as BREAKPOINT_OUTPUT_CHARS } from "../llm/cache-breakpoints.ts";
import type { Message, ToolResultBlock, ToolUseBlock } from "../protocol/message.ts";
import { CHARS_PER_TOKEN, estimateTextTokens } from "./token-estimate.ts";

/**
 * The low-water mark: tool outputs newer than this many tokens (counted from the newest) are
 * never pruned. Low, so that a prune clears much and the next one is many turns away: each prune
 * changes early messages, and the prompt cache then re-writes everything after the first one
 * changed (see pruneGap). The newest tool results, which the model has not seen yet, always stay.
 */
export const PRUNE_KEEP_TOKENS = 8_000;

/** A prompt-cache write and read as multiples of uncached input (Anthropic: 1.25 and 0.1). */
export interface CacheRates {
  write: number;
  read: number;
}

/**
 * How far (tokens) the context should grow past its size after the last prune before the next
 * prune pays for itself. A prune costs a re-write of the `rewrite` tokens after the first message
 * it changes, (write − read) × rewrite once; waiting costs a read of the stale outputs each turn,
 * growing by `growth` a turn. Per turn over a cycle of gap G that is (write − read) × rewrite ×
 * growth / G + read × G / 2, least at G = sqrt(2 (write − read) rewrite growth / read). Pure.
 */
export function pruneGap(rewrite: number, growth: number, rates: CacheRates): number {
  if (rates.read <= 0 || growth <= 0) return Number.POSITIVE_INFINITY;
  return Math.sqrt((2 * Math.max(0, rates.write - rates.read) * rewrite * growth) / rates.read);
}
/**
 * Outputs shorter than this stay: their note would save nothing. The wire puts a cache breakpoint
 * before the oldest output this long, the first one a prune may change.
 */
const MIN_PRUNE_CHARS = BREAKPOINT_OUTPUT_CHARS;

function resultText(block: ToolResultBlock): string {
  return typeof block.content === "string"
    ? block.content
    : block.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

function describeCall(call: ToolUseBlock | undefined): string {
  if (!call) return "a tool call";
  const input = call.input && typeof call.input === "object" ? (call.input as Record<string, unknown>) : {};
  const arg = input.command ?? input.path ?? input.pattern ?? "";
  const shown = String(arg).replace(/\s+/g, " ").slice(0, 80);
  return shown ? `${call.name} ${JSON.stringify(shown)}` : call.name;
}

export function prunedNote(call: ToolUseBlock | undefined, chars: number): string {
  return (
    `[output of ${describeCall(call)} cleared from the context to save space (${chars} characters); ` +
    "the session archive keeps it]"
  );
}

/**
 * The messages of `context` whose old tool outputs are to be cleared, as replacement copies (same
 * id), keeping the newest `keepTokens` of tool output untouched. Pure.
 */
export function selectPrune(context: readonly Message[], keepTokens = PRUNE_KEEP_TOKENS): Map<string, Message> {
  const out = new Map<string, Message>();
  let kept = 0;
  let newest = true;
  for (let i = context.length - 1; i >= 0; i--) {
    const m = context[i];
    if (m?.role !== "user" || !m.content.some((b) => b.type === "tool_result")) continue;
    // The newest results are what the model is about to read: never cleared before it has.
    if (newest) {
      newest = false;
      for (const b of m.content) if (b.type === "tool_result") kept += estimateTextTokens(resultText(b));
      continue;
    }
    const prev = context[i - 1];
    const calls = new Map<string, ToolUseBlock>();
    for (const b of prev?.content ?? []) if (b.type === "tool_use") calls.set(b.id, b);
    let changed = false;
    // Newest block first, so the budget goes to the latest outputs.
    const content = [...m.content];
    for (let j = content.length - 1; j >= 0; j--) {
      const block = content[j];
      if (block?.type !== "tool_result") continue;
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
    for (const [j, a] of m.content.entries()) {
      const b = copy.content[j];
      if (a.type === "tool_result" && b?.type === "tool_result") chars += resultText(a).length - resultText(b).length;
    }
  }
  return Math.floor(chars / CHARS_PER_TOKEN);
}

/** Tool outputs longer than this are trimmed from memory under memory pressure. */
const LARGE_OUTPUT_CHARS = 1024;
/** What a trimmed output keeps of its start. */
const TRIMMED_KEEP_CHARS = 200;

/** The message with every tool output over LARGE_OUTPUT_CHARS cut to its start and a note, or undefined. */
function withoutLargeToolOutputs(message: Message): Message | undefined {
  let changed = false;
  const content = message.content.map((block) => {
    if (block.type !== "tool_result") return block;
    const text = resultText(block);
    if (text.length <= LARGE_OUTPUT_CHARS) return block;
    changed = true;
    const dropped = text.length - TRIMMED_KEEP_CHARS;
    const note =
      `${text.slice(0, TRIMMED_KEEP_CHARS)}\n[${dropped} more characters dropped from memory under memory pressure; ` +
      "kept in the session archive]";
    return { ...block, content: note };
  });
  return changed ? { ...message, content } : undefined;
}

/**
 * Memory pressure's pruner: copies (same id) of the messages of `window`, all but the newest
 * `keepRecent`, whose large tool outputs are cut to their start and a note. The store puts them in
 * memory in place of the originals (the archive keeps those whole). Pure.
 */
export function trimForMemory(window: readonly Message[], keepRecent: number): Map<string, Message> {
  const out = new Map<string, Message>();
  const limit = window.length - Math.max(0, keepRecent);
  for (let i = 0; i < limit; i++) {
    const message = window[i];
    const copy = message && withoutLargeToolOutputs(message);
    if (message && copy) out.set(message.id, copy);
  }
  return out;
}
