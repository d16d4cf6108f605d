// Builds the message list a request is made from, out of the store's in-memory window: pure.
// The window can start mid-exchange (older messages were evicted) or end mid-exchange (a run was
// killed while a tool ran); the APIs reject both, so the edges are repaired here.

import type { Message, ToolResultBlock, ToolUseBlock } from "../protocol/message.ts";

const MISSING_RESULT = "No result: the run ended before this tool call finished.";

function isToolResultMessage(m: Message): boolean {
  return m.role === "user" && m.content.some((b) => b.type === "tool_result");
}

export function buildContext(window: readonly Message[]): Message[] {
  // 1. Start at a user message that is a plain prompt (or a summary), never at a tool result.
  let start = 0;
  while (start < window.length && !(window[start].isSummary || (window[start].role === "user" && !isToolResultMessage(window[start])))) {
    start++;
  }
  const kept = window.slice(start);

  // 2. Pair every tool_use with a tool_result, dropping results whose call is gone.
  const out: Message[] = [];
  for (let i = 0; i < kept.length; i++) {
    const m = kept[i];
    if (m.role === "user") {
      // A user message not right after a tool-calling assistant turn cannot carry results.
      const content = m.content.filter((b) => b.type !== "tool_result");
      if (content.length) out.push({ ...m, content });
      continue;
    }
    out.push(m);
    const uses = m.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
    if (!uses.length) continue;
    const ids = new Set(uses.map((u) => u.id));
    const next = kept[i + 1]?.role === "user" ? kept[++i] : undefined;
    const results = (next?.content ?? []).filter((b): b is ToolResultBlock => b.type === "tool_result" && ids.has(b.tool_use_id));
    const answered = new Set(results.map((b) => b.tool_use_id));
    const missing: ToolResultBlock[] = uses
      .filter((u) => !answered.has(u.id))
      .map((u) => ({ type: "tool_result", tool_use_id: u.id, content: MISSING_RESULT, is_error: true }));
    const rest = (next?.content ?? []).filter((b) => b.type !== "tool_result");
    out.push({ ...(next ?? { id: `${m.id}-repair`, role: "user", ts: m.ts }), content: [...results, ...missing, ...rest] });
  }
  return mergeSameRole(out);
}

/** The APIs want alternating roles; a synthetic result followed by a new prompt is merged. */
function mergeSameRole(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    const prev = out[out.length - 1];
    if (prev && prev.role === m.role) {
      // Tool results must come first in a user message (Anthropic's rule).
      const content = [...prev.content, ...m.content].sort(
        (a, b) => Number(b.type === "tool_result") - Number(a.type === "tool_result"),
      );
      out[out.length - 1] = { ...prev, content };
    } else {
      out.push(m);
    }
  }
  return out;
}
