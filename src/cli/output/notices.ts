// One-line stderr notices shared by the writers that print them.

import type { AgentEvent } from "../../protocol/events.ts";

export function retryNotice(event: Extract<AgentEvent, { type: "turn_retry" }>): string {
  return `retrying in ${(event.delay_ms / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`;
}
