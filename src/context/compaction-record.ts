// What a compaction record holds beyond its summary: the first prompt and the user's own messages
// within their budgets, and the record message itself with fresh copies of the turns it keeps.

import { type CompactionInfo, type Message, newMessageId, textOf } from "../protocol/message.ts";
import { promptText, recordText } from "./summary-prompt.ts";
import { CHARS_PER_TOKEN, estimateMessageTokens, estimateTextTokens, estimateTokens } from "./token-estimate.ts";

/** The user's own messages kept verbatim in a record, newest first, up to this many tokens. */
export const USER_MESSAGES_TOKENS = 20_000;
/** The first prompt is kept verbatim up to this many tokens. */
export const TASK_TOKENS = 20_000;

/** The newest user messages within USER_MESSAGES_TOKENS, oldest first. */
export function keepUserMessages(messages: string[], budget = USER_MESSAGES_TOKENS): string[] {
  const out: string[] = [];
  let used = 0;
  for (const message of [...messages].reverse()) {
    const t = estimateTextTokens(message);
    if (used + t > budget) break;
    used += t;
    out.unshift(message);
  }
  return out;
}

/** The first prompt's text for a record, cut to `maxTokens` with a note where the rest is. */
export function taskTextOf(task: Message | undefined, maxTokens: number): string {
  const text = task ? (promptText(task) ?? textOf(task)) : "";
  const max = maxTokens * CHARS_PER_TOKEN;
  return text.length > max
    ? `${text.slice(0, max)}\n[... ${text.length - max} more characters of the first prompt are in the session archive]`
    : text;
}

/**
 * The record message for `info` and new copies (fresh ids) of the kept `tail`; fills in the
 * record's keptIds and its tokensAfter (`fixedTokens` for the system prompt and tools).
 */
export function recordWithKept(
  info: CompactionInfo,
  tail: Message[],
  fixedTokens: number,
): { record: Message; copies: Message[] } {
  const now = Date.now();
  const copies = tail.map((m) => ({ ...m, id: newMessageId(), ts: now }));
  info.keptIds = copies.map((m) => m.id);
  const record: Message = {
    id: newMessageId(),
    role: "user",
    content: [{ type: "text", text: recordText(info) }],
    ts: now,
    isSummary: true,
    compaction: info,
  };
  info.tokensAfter = fixedTokens + estimateMessageTokens(record) + estimateTokens(copies);
  return { record, copies };
}
