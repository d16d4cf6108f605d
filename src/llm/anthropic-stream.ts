// Folds Anthropic Messages stream events into one assistant turn: text as it arrives, tool inputs
// joined from input_json_delta fragments, cumulative usage. Pure: fed events, no I/O.

import type { ContentBlock, Usage } from "../protocol/message.ts";
import { parseToolInput, type ToolInputFields } from "./tool-input.ts";
import type { AssistantTurn, StreamCallbacks } from "./types.ts";
import { entryOf } from "../text/checked-index.ts";

/** The fields we read; the API may add event types and fields at any time (ignored). */
export interface AnthropicEvent {
  type: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type: string; id?: string; name?: string; text?: string; input?: unknown };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
}

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

type Pending =
  | { kind: "text"; text: string }
  | { kind: "tool"; id: string; name: string; json: string; startInput: unknown; input?: ToolInputFields };

/** Cached prompt tokens are still prompt tokens: count them, as OpenAI's prompt_tokens does. */
function inputTokens(u: AnthropicUsage): number | undefined {
  if (u.input_tokens == null) return undefined;
  return u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
}

export class AnthropicTurnBuilder {
  readonly #blocks = new Map<number, Pending>();
  readonly #usage: Usage = { input_tokens: 0, output_tokens: 0 };
  #stopReason = "";
  #stopped = false;

  constructor(
    private readonly onText: (text: string) => void,
    private readonly onToolInput?: StreamCallbacks["onToolInput"],
  ) {}

  add(event: AnthropicEvent): void {
    switch (event.type) {
      case "message_start":
        this.#addUsage(event.message?.usage);
        break;
      case "content_block_start":
        this.#start(event.index ?? this.#blocks.size, event.content_block);
        break;
      case "content_block_delta":
        this.#delta(event.index ?? -1, event.delta);
        break;
      case "content_block_stop":
        this.#finishTool(this.#blocks.get(event.index ?? -1));
        break;
      case "message_delta":
        if (event.delta?.stop_reason) this.#stopReason = event.delta.stop_reason;
        this.#addUsage(event.usage);
        break;
      case "message_stop":
        this.#stopped = true;
        break;
      // ping and event types added after this was written carry nothing we use.
    }
  }

  /** Whether the stream reached its end; a stream that stops short was cut. */
  get complete(): boolean {
    return this.#stopped || this.#stopReason !== "";
  }

  finish(): AssistantTurn {
    const content: ContentBlock[] = [];
    for (const index of [...this.#blocks.keys()].sort((a, b) => a - b)) {
      const block = entryOf(this.#blocks, index);
      if (block.kind === "text") {
        if (block.text) content.push({ type: "text", text: block.text });
      } else {
        this.#finishTool(block);
        content.push({ type: "tool_use", id: block.id, name: block.name, ...(block.input ?? { input: {} }) });
      }
    }
    return { content, stopReason: this.#stopReason || "end_turn", usage: { ...this.#usage } };
  }

  #start(index: number, block: AnthropicEvent["content_block"]): void {
    if (block?.type === "text") {
      this.#blocks.set(index, { kind: "text", text: block.text ?? "" });
      if (block.text) this.onText(block.text);
    } else if (block?.type === "tool_use") {
      this.#blocks.set(index, {
        kind: "tool",
        id: block.id ?? `toolu_${index}`,
        name: block.name ?? "",
        json: "",
        startInput: block.input,
      });
    }
    // thinking and server-tool blocks are not requested and not kept.
  }

  #delta(index: number, delta: AnthropicEvent["delta"]): void {
    const block = this.#blocks.get(index);
    if (!block || !delta) return;
    if (block.kind === "text" && delta.type === "text_delta" && delta.text) {
      block.text += delta.text;
      this.onText(delta.text);
    } else if (block.kind === "tool" && delta.type === "input_json_delta") {
      block.json += delta.partial_json ?? "";
      this.onToolInput?.(index, block.name, block.json);
    }
  }

  /** Parses the joined JSON once, at content_block_stop (or at the end if that never came). */
  #finishTool(block: Pending | undefined): void {
    if (block?.kind !== "tool" || block.input !== undefined) return;
    // Some compatible servers put the whole input in content_block_start and send no deltas.
    const start = block.startInput;
    const startHasInput = start && typeof start === "object" && Object.keys(start).length > 0;
    block.input = block.json === "" && startHasInput ? { input: start } : parseToolInput(block.json);
  }

  #addUsage(u: AnthropicUsage | undefined): void {
    if (!u) return;
    const input = inputTokens(u);
    if (input !== undefined) {
      this.#usage.input_tokens = input;
      if (u.cache_read_input_tokens != null) this.#usage.cache_read_input_tokens = u.cache_read_input_tokens;
      if (u.cache_creation_input_tokens != null)
        this.#usage.cache_creation_input_tokens = u.cache_creation_input_tokens;
    }
    // output_tokens in message_delta is the running total, not an increment.
    if (u.output_tokens != null) this.#usage.output_tokens = u.output_tokens;
  }
}
