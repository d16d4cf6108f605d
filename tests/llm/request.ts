// Builders shared by the llm tests: a model request with sensible defaults, and providers pointed at
// a fake server.

import { AnthropicProvider } from "../../src/llm/anthropic.ts";
import { OpenAIProvider } from "../../src/llm/openai.ts";
import type { ModelRequest, Provider } from "../../src/llm/types.ts";
import { newMessageId, type ContentBlock, type Message } from "../../src/protocol/message.ts";
import type { FakeLLM } from "../support/fake-llm.ts";

export type ProviderKind = "anthropic" | "openai";

export function providerFor(kind: ProviderKind, fake: FakeLLM, model?: string): Provider {
  if (kind === "anthropic")
    return new AnthropicProvider({ apiKey: "sk-ant-test", baseUrl: fake.url, model: model ?? "claude-test" });
  return new OpenAIProvider({ apiKey: "sk-test", baseUrl: `${fake.url}/v1`, model: model ?? "gpt-test" });
}

export function message(role: Message["role"], ...content: Array<ContentBlock | string>): Message {
  const blocks = content.map((c) => (typeof c === "string" ? { type: "text" as const, text: c } : c));
  return { id: newMessageId(), role, content: blocks, ts: Date.now() };
}

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "",
    system: "You are a test.",
    messages: [message("user", "hello")],
    tools: [],
    maxTokens: 1024,
    signal: new AbortController().signal,
    loadImage: async (ref) => ({
      mediaType: ref.mediaType,
      base64: Buffer.from(`image ${ref.sha256}`).toString("base64"),
    }),
    ...overrides,
  };
}

/** Streams one turn and collects the text pieces onText saw. */
export async function streamCollect(provider: Provider, req: ModelRequest = request()) {
  const pieces: string[] = [];
  const turn = await provider.stream(req, { onText: (t) => pieces.push(t) });
  return { turn, pieces };
}
