// The provider interface: one streamed request in, one assistant turn out. Retries live in
// retry.ts, not in providers.

import type { ContentBlock, ImageRef, Message, Usage } from "../protocol/message.ts";
import type { JsonSchema } from "../protocol/json-schema.ts";

export interface ToolSpec {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export interface ModelRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxTokens: number;
  signal: AbortSignal;
  /** The session's id: OpenAI routes requests with one key to the same prompt cache (prompt_cache_key). */
  cacheKey?: string;
  /** Loads an image's bytes only while the request is being built. */
  loadImage(ref: ImageRef): Promise<{ mediaType: string; base64: string }>;
}

export interface AssistantTurn {
  content: ContentBlock[];
  stopReason: string;
  usage: Usage;
}

export interface StreamCallbacks {
  onText(text: string): void;
  /** Any event arrived (pings included): the stream is alive. */
  onEvent?(): void;
  /**
   * A tool call's input as it streams: the call's index in the turn, its name, and its JSON text
   * joined so far (cut anywhere). Lets the agent get ready for a call before the turn ends.
   */
  onToolInput?(index: number, name: string, json: string): void;
  /** The request's bytes are on their way (its fetch started): work it need not wait for may start. */
  onSent?(): void;
}

export interface Provider {
  readonly name: "anthropic" | "openai";
  readonly model: string;
  /** Milliseconds its requests have taken so far, each from its start to its end (failed ones too). */
  readonly apiMs: number;
  /** Streams one turn. Throws ProviderError (with status and retryable) on failure. */
  stream(request: ModelRequest, callbacks: StreamCallbacks): Promise<AssistantTurn>;
  /**
   * Starts loading the SDK and making the client, without waiting: called as a session opens, so
   * that work runs while the session's files are written rather than after. Never throws (the first
   * request meets any failure again).
   */
  prepare?(): void;
}
