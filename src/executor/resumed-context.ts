// The context a resumed session holds before its first new request, for /status and the status
// line: what the last response reported (input + output tokens), or what the last condense left.

import type { Message } from "../protocol/message.ts";

/** Messages looked back over; a session's last usage is in its newest assistant message. */
export const RESUME_SCAN = 50;

export function lastContextTokens(messages: readonly Message[]): number {
  for (const m of [...messages].reverse()) {
    if (m.compaction) return m.compaction.tokensAfter;
    if (m.role === "assistant" && m.usage) return m.usage.input_tokens + m.usage.output_tokens;
  }
  return 0;
}
