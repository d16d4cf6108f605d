// One-line stderr notices shared by the writers that print them.

import type { AgentEvent } from "../../protocol/events.ts";
import { tokenChange } from "./token-count.ts";

/** Why a tool call was refused, and the flag that would allow it: one line for stderr. */
export function permissionNotice(event: Extract<AgentEvent, { type: "permission_denied" }>): string {
  const allow = event.allow_with ? ` (to allow it: ${event.allow_with})` : "";
  return `permission denied: ${event.name}: ${event.reason}${allow}`;
}

export function retryNotice(event: Extract<AgentEvent, { type: "turn_retry" }>): string {
  return `retrying in ${(event.delay_ms / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`;
}

/** `context 172k → 21k tokens (summary)`: one line per condense of the context. */
export function compactNotice(event: Extract<AgentEvent, { type: "compact_boundary" }>): string {
  const how =
    event.method === "prune"
      ? "old tool outputs cleared"
      : event.method === "summary"
        ? "summarised"
        : "older messages left out";
  const why =
    event.trigger === "reactive"
      ? ", after the API said the prompt was too long"
      : event.trigger === "manual"
        ? ", on request"
        : "";
  return `context ${tokenChange(event.tokens_before, event.tokens_after)} tokens (${how}${why})`;
}

/** `compacting: summarising 14 earlier messages, keeping the last 4 turns whole`: said when it starts. */
export function compactStartNotice(event: Extract<AgentEvent, { type: "compact_start" }>): string {
  const why = event.trigger === "reactive" ? " (the API said the prompt was too long)" : "";
  const kept = `keeping the last ${event.keep_turns} turn${event.keep_turns === 1 ? "" : "s"} whole`;
  return `compacting: summarising ${event.messages} earlier messages, ${kept}${why}`;
}
