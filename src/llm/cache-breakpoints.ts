// Where Anthropic's prompt-cache breakpoints go inside the conversation (besides the system prompt
// and the moving end). The API caches a prefix only at a breakpoint some request carried, and looks
// for one at most 20 blocks before each of this request's breakpoints; so a prefix that stays the
// same while later messages change must carry a breakpoint of its own to be read again. Pure.

import type { Message, ToolResultBlock } from "../protocol/message.ts";
import { itemAt } from "../text/checked-index.ts";

/**
 * Tool outputs this long or longer are what condensing may still clear; a cleared output's note,
 * and an output cut under memory pressure, are shorter. (context/prune.ts clears none shorter.)
 */
export const LARGE_OUTPUT_CHARS = 400;

function outputChars(block: ToolResultBlock): number {
  if (typeof block.content === "string") return block.content.length;
  return block.content.reduce((n, part) => n + (part.type === "text" ? part.text.length : 0), 0);
}

function hasLargeOutput(message: Message): boolean {
  return message.content.some((b) => b.type === "tool_result" && outputChars(b) >= LARGE_OUTPUT_CHARS);
}

/** The newest compaction record (or summary) before the last message, or -1. */
export function summaryIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 2; i >= 0; i--)
    if (itemAt(messages, i).compaction || itemAt(messages, i).isSummary) return i;
  return -1;
}

/**
 * The message before the oldest large tool output after the newest record, or -1: the end of the
 * prefix a prune leaves as it was (it clears outputs from the oldest on), so the request after a
 * prune reads everything before the first output it changed. Before the last message only.
 */
export function stablePrefixEnd(messages: readonly Message[]): number {
  for (let i = Math.max(1, summaryIndex(messages) + 1); i < messages.length - 1; i++)
    if (hasLargeOutput(itemAt(messages, i))) return i - 1;
  return -1;
}

/**
 * The messages (indices, ascending) whose last block carries a breakpoint before the end: the
 * newest compaction record (stable until the next condense) and the end of the prefix a prune
 * keeps. `anchor`, the previous request's end of that prefix (the same object), takes the record's
 * place when a prune has moved the end on since: the API looks back only 20 blocks from a
 * breakpoint, and a prune of many turns leaves more than that between the two. With the system
 * prompt's and the end's, at most 4, the API's limit.
 */
export function innerBreakpoints(messages: readonly Message[], anchor?: Message): number[] {
  const record = summaryIndex(messages);
  const stable = stablePrefixEnd(messages);
  const previous = anchor ? messages.indexOf(anchor) : -1;
  const moved = previous > record && previous < (stable >= 0 ? stable : messages.length - 1);
  const first = moved ? previous : record;
  const marks = [first, stable].filter((i) => i >= 0);
  return [...new Set(marks)].sort((a, b) => a - b);
}
