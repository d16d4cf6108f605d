// Whole turns of a conversation: an assistant message with the tool results that answer it, or a
// user prompt on its own. Anything that cuts a conversation cuts between turns, so a tool call is
// never separated from its result.

import type { Message } from "../protocol/message.ts";

export interface TurnSpan {
  /** Index of the turn's first message. */
  start: number;
  /** Index after its last message. */
  end: number;
}

export function isToolResultMessage(m: Message): boolean {
  return m.role === "user" && m.content.some((b) => b.type === "tool_result");
}

export function groupTurns(messages: readonly Message[]): TurnSpan[] {
  const turns: TurnSpan[] = [];
  for (let i = 0; i < messages.length; ) {
    const m = messages[i];
    const next = messages[i + 1];
    const calls = m?.role === "assistant" && m.content.some((b) => b.type === "tool_use");
    const end = calls && next && isToolResultMessage(next) ? i + 2 : i + 1;
    turns.push({ start: i, end });
    i = end;
  }
  return turns;
}

/** Index where the last `keep` whole turns begin (messages.length when keep is 0). */
export function tailStart(messages: readonly Message[], keep: number): number {
  if (keep <= 0) return messages.length;
  const turns = groupTurns(messages);
  return turns.length <= keep ? 0 : (turns[turns.length - keep]?.start ?? 0);
}
