// Builds the message list a request is made from, out of the store's in-memory window: pure.
// The context starts at the last compaction record in the window (the summary that carries the
// task); without one, at the session's first prompt; and if that was evicted from memory, at a
// marker that carries the task and says how many messages were left out. The window can also start
// or end mid-exchange (eviction, a run killed while a tool ran); the APIs reject both, so the
// edges are repaired here.

import type { Message, ToolResultBlock, ToolUseBlock } from "../protocol/message.ts";
import { promptText, recordText } from "./summary-prompt.ts";
import { isToolResultMessage } from "./turns.ts";

const MISSING_RESULT = "No result: the run ended before this tool call finished.";

export interface ContextOptions {
  /** The session's first prompt, if known. */
  task?: Message;
  /** How many messages the session holds in all (in the archive and the window). */
  total?: number;
  /** The last compaction record seen, kept by the caller when memory pressure evicts it. */
  record?: Message;
}

/** Index of the last compaction record in the window, or -1. */
export function lastRecordIndex(window: readonly Message[]): number {
  for (let i = window.length - 1; i >= 0; i--) if (window[i]?.compaction) return i;
  return -1;
}

const markers = new WeakMap<Message, { omitted: number; marker: Message }>();
/** A marker's id is the id of the message it is made from, plus this. */
export const MARKER_SUFFIX = "-marker";

/**
 * Stands in for the evicted start of the context: the task (or the last record's task, summary and
 * user messages), and how many messages were left out.
 */
function markerFor(task: Message, omitted: number): Message {
  const cached = markers.get(task);
  if (cached && cached.omitted === omitted) return cached.marker;
  const info = task.compaction;
  const text = info
    ? recordText({ ...info, method: "window", count: omitted })
    : recordText({ method: "window", task: promptText(task) ?? "", count: omitted });
  const images = info ? [] : task.content.filter((b) => b.type === "image");
  const marker: Message = {
    id: `${task.id}${MARKER_SUFFIX}`,
    role: "user",
    content: [...images, { type: "text", text }],
    ts: task.ts,
    isSummary: true,
  };
  markers.set(task, { omitted, marker });
  return marker;
}

/** A summary, or a user message that is a plain prompt (never a tool result): where a context may start. */
const isCleanStart = (m: Message | undefined) =>
  m !== undefined && (m.isSummary || (m.role === "user" && !isToolResultMessage(m)));
const isResults = (m: Message | undefined) => m !== undefined && isToolResultMessage(m);

/** The messages the context is made of, before its edges are repaired. */
export function selectContext(window: readonly Message[], opts: ContextOptions = {}): Message[] {
  const record = lastRecordIndex(window);
  if (record >= 0) return window.slice(record);
  const task = opts.record ?? opts.task;
  if (!task || window[0]?.id === task.id) {
    // Start at a user message that is a plain prompt, never at a tool result.
    let start = 0;
    while (start < window.length && !isCleanStart(window[start])) start++;
    return window.slice(start);
  }
  // The task left the window: a marker carries it, then the window from its first clean edge.
  let start = 0;
  while (start < window.length && isResults(window[start])) start++;
  const omitted = Math.max(1, (opts.total ?? window.length) - (window.length - start));
  return [markerFor(task, omitted), ...window.slice(start)];
}

export function buildContext(window: readonly Message[], opts: ContextOptions = {}): Message[] {
  const kept = selectContext(window, opts);

  // 2. Pair every tool_use with a tool_result, dropping results whose call is gone.
  const out: Message[] = [];
  for (let i = 0; i < kept.length; i++) {
    const m = kept[i];
    if (!m) continue;
    if (m.role === "user") {
      // A user message not right after a tool-calling assistant turn cannot carry results.
      const content = m.content.filter((b) => b.type !== "tool_result");
      // Untouched messages keep their identity: token estimates are cached per message object.
      if (content.length === m.content.length) out.push(m);
      else if (content.length) out.push({ ...m, content });
      continue;
    }
    out.push(m);
    const uses = m.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
    if (!uses.length) continue;
    const ids = new Set(uses.map((u) => u.id));
    const next = kept[i + 1]?.role === "user" ? kept[++i] : undefined;
    const results = (next?.content ?? []).filter(
      (b): b is ToolResultBlock => b.type === "tool_result" && ids.has(b.tool_use_id),
    );
    const answered = new Set(results.map((b) => b.tool_use_id));
    const missing: ToolResultBlock[] = uses
      .filter((u) => !answered.has(u.id))
      .map((u) => ({ type: "tool_result", tool_use_id: u.id, content: MISSING_RESULT, is_error: true }));
    const rest = (next?.content ?? []).filter((b) => b.type !== "tool_result");
    const content = [...results, ...missing, ...rest];
    if (next && content.length === next.content.length && content.every((b, k) => b === next.content[k]))
      out.push(next);
    else out.push({ ...(next ?? { id: `${m.id}-repair`, role: "user", ts: m.ts }), content });
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
