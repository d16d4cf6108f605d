// Folds OpenAI Chat Completions stream chunks into one assistant turn: content deltas, tool calls
// keyed by index (id and name only in the first fragment), the usage-only final chunk. Pure.

import type { ContentBlock, Usage } from "../protocol/message.ts";
import { parseToolInput } from "./tool-input.ts";
import type { AssistantTurn, StreamCallbacks } from "./types.ts";
import { entryOf } from "../text/checked-index.ts";

/** The fields we read; compatible servers vary, so every one is optional. */
export interface OpenAIChunk {
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      refusal?: string | null;
      tool_calls?: ToolCallFragment[];
    };
    finish_reason?: string | null;
  }>;
  usage?: {
    prompt_tokens?: number | null;
    completion_tokens?: number | null;
    prompt_tokens_details?: { cached_tokens?: number | null } | null;
  } | null;
}

interface ToolCallFragment {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: unknown };
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** Our stop reasons follow Anthropic's names; the agent checks for these. */
const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
  content_filter: "refusal",
};

let generated = 0;

export class OpenAITurnBuilder {
  #text = "";
  readonly #calls = new Map<number, PendingCall>();
  #lastIndex = -1;
  #finish = "";
  readonly #usage: Usage = { input_tokens: 0, output_tokens: 0 };

  constructor(
    private readonly onText: (text: string) => void,
    private readonly onToolInput?: StreamCallbacks["onToolInput"],
  ) {}

  add(chunk: OpenAIChunk): void {
    if (chunk.usage) {
      this.#usage.input_tokens = chunk.usage.prompt_tokens ?? this.#usage.input_tokens;
      this.#usage.output_tokens = chunk.usage.completion_tokens ?? this.#usage.output_tokens;
      // OpenAI caches prefixes by itself and bills no write; reads are in the prompt's details.
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens;
      if (cached != null) this.#usage.cache_read_input_tokens = cached;
    }
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    const delta = choice.delta ?? {};
    for (const text of [delta.content, delta.refusal]) {
      if (typeof text === "string" && text) {
        this.#text += text;
        this.onText(text);
      }
    }
    for (const call of delta.tool_calls ?? []) this.#addCall(call);
    if (choice.finish_reason) this.#finish = choice.finish_reason;
  }

  /** A stream without a finish_reason was cut before the model finished. */
  get complete(): boolean {
    return this.#finish !== "";
  }

  finish(): AssistantTurn {
    const content: ContentBlock[] = this.#text ? [{ type: "text", text: this.#text }] : [];
    for (const index of [...this.#calls.keys()].sort((a, b) => a - b)) {
      const call = entryOf(this.#calls, index);
      // Some local servers omit ids; the tool result still needs one to point at.
      if (!call.id) generated += 1;
      const id = call.id || `call_${Date.now().toString(36)}_${generated}`;
      content.push({ type: "tool_use", id, name: call.name, ...parseToolInput(call.args) });
    }
    // Some servers say "stop" even when they called tools; the calls are what the agent must act on.
    // ...except "length": then the calls themselves were cut, which the agent must know.
    const stopReason =
      this.#finish === "length"
        ? "max_tokens"
        : this.#calls.size > 0
          ? "tool_use"
          : (STOP_REASONS[this.#finish] ?? (this.#finish || "end_turn"));
    return { content, stopReason, usage: { ...this.#usage } };
  }

  #addCall(fragment: ToolCallFragment): void {
    // Servers that leave out `index` start a new call with each new id.
    const known = [...this.#calls.values()].some((c) => c.id && c.id === fragment.id);
    const index = fragment.index ?? (fragment.id && !known ? this.#calls.size : Math.max(this.#lastIndex, 0));
    this.#lastIndex = index;
    let call = this.#calls.get(index);
    if (!call) {
      call = { id: "", name: "", args: "" };
      this.#calls.set(index, call);
    }
    if (fragment.id && !call.id) call.id = fragment.id;
    if (fragment.function?.name && !call.name) call.name = fragment.function.name;
    const args = fragment.function?.arguments;
    if (typeof args === "string") call.args += args;
    else if (args && typeof args === "object") call.args += JSON.stringify(args);
    if (call.args) this.onToolInput?.(index, call.name, call.args);
  }
}
