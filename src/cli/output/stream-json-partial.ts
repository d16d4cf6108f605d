// `--include-partial-messages`: the model's text as it streams, as Claude Code's `stream_event`
// lines carrying the Messages API's own stream events. Synapse's providers hand the writer text
// deltas (both APIs alike), so the events are the text subset: message_start, a text block's
// start, its deltas and stop, message_stop; the finished turn follows as the `assistant` line.
// A retried stream drops what it had streamed, as the assistant line will not hold it.

export interface PartialEvents {
  /** The events to write for one text delta. */
  delta(text: string): object[];
  /** The events that close an open message before its `assistant` line (none when nothing streamed). */
  finish(stopReason: string | null): object[];
  /** The stream is being retried: what was open is abandoned. */
  reset(): void;
}

export function createPartialEvents(model: () => string): PartialEvents {
  let open = false;
  return {
    delta(text) {
      const events: object[] = [];
      if (!open) {
        open = true;
        events.push(
          {
            type: "message_start",
            message: { type: "message", role: "assistant", model: model(), content: [], stop_reason: null },
          },
          { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        );
      }
      events.push({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });
      return events;
    },
    finish(stopReason) {
      if (!open) return [];
      open = false;
      return [
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: stopReason } },
        { type: "message_stop" },
      ];
    },
    reset() {
      open = false;
    },
  };
}
