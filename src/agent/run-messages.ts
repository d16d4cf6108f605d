// The messages a run writes besides the model's own turns, and the store's flush that must not end it.

import type { AssistantTurn } from "../llm/types.ts";
import { errorMessage } from "../protocol/errors.ts";
import type { EventSink } from "../protocol/events.ts";
import { type ContentBlock, INTERRUPTED_NOTE, type Message, newMessageId } from "../protocol/message.ts";
import type { SessionStore } from "../store/types.ts";

/** UserPromptSubmit and SessionStart hooks' context, after the prompt. */
export function hookContext(text: string): ContentBlock {
  return { type: "text", text: `<hook-context>\n${text.toWellFormed()}\n</hook-context>` };
}

/** A user message the run writes itself: a turn's tool results, a structured answer's errors, a mark. */
export function userMessage(content: ContentBlock[]): Message {
  return { id: newMessageId(), role: "user", content, ts: Date.now() };
}

/** The answer streamed so far, kept and marked, when the user interrupts it. */
export function interruptedAnswer(partial: string): Message {
  const text = `${partial.toWellFormed()}${INTERRUPTED_NOTE}`;
  return {
    id: newMessageId(),
    role: "assistant",
    content: [{ type: "text", text }],
    ts: Date.now(),
    stop_reason: "interrupted",
  };
}

/** The model's turn as a stored message. */
export function assistantMessage(turn: AssistantTurn): Message {
  return {
    id: newMessageId(),
    role: "assistant",
    // A model's JSON can carry a lone surrogate escape; sent back, the API would reject it.
    content: turn.content.map((b) => (b.type === "text" ? { ...b, text: b.text.toWellFormed() } : b)),
    ts: Date.now(),
    usage: turn.usage,
    stop_reason: turn.stopReason,
  };
}

/**
 * Writes the store out. A full disk must not end the run: the messages stay in memory and the
 * next flush retries; each distinct failure is warned about once.
 */
export function flusher(store: SessionStore, emit: EventSink): () => Promise<void> {
  const reported = new Set<string>();
  return async () => {
    try {
      await store.flush();
    } catch (err) {
      const message = errorMessage(err);
      if (!reported.has(message)) emit({ type: "warning", message });
      reported.add(message);
    }
  };
}
