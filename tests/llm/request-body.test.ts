// Request bodies built from per-message JSON kept between turns (Anthropic and OpenAI) are byte for
// byte what serialising the whole request gives, on the wire too (through the SDKs, to the fake).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AnthropicProvider } from "../../src/llm/anthropic.ts";
import { AnthropicBodyBuilder } from "../../src/llm/anthropic-body.ts";
import { toAnthropicParams } from "../../src/llm/anthropic-wire.ts";
import { stablePrefixEnd } from "../../src/llm/cache-breakpoints.ts";
import { OpenAIProvider } from "../../src/llm/openai.ts";
import { OpenAIBodyBuilder } from "../../src/llm/openai-body.ts";
import { toOpenAIParams } from "../../src/llm/openai-wire.ts";
import type { ModelRequest } from "../../src/llm/types.ts";
import type { Message } from "../../src/protocol/message.ts";
import { type FakeLLM, startFakeLLM } from "../support/fake-llm.ts";

const image = { type: "image", image: { sha256: "ab", mediaType: "image/png", bytes: 3 } } as const;

function conversation(turns: number): Message[] {
  const w: Message[] = [
    { id: "t", role: "user", content: [{ type: "text", text: 'task: é \u2028 "quoted" \\ 😀' }], ts: 0 },
  ];
  for (let i = 0; i < turns; i++) {
    w.push({
      id: `a${i}`,
      role: "assistant",
      content: [
        { type: "text", text: i % 3 ? "" : `step ${i}` },
        { type: "tool_use", id: `c${i}`, name: "Bash", input: { command: `cat f${i}` } },
      ],
      ts: 0,
    });
    const content = i % 5 === 4 ? [image] : `output ${i}\n`.repeat(50);
    w.push({
      id: `u${i}`,
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `c${i}`, content, is_error: i % 4 === 3 }],
      ts: 0,
    });
  }
  w.push({ id: "empty", role: "assistant", content: [{ type: "text", text: "" }], ts: 0 });
  return w;
}

function request(messages: Message[]): ModelRequest {
  return {
    model: "claude-x",
    system: "system prompt",
    messages,
    tools: [
      {
        name: "Bash",
        description: "runs",
        input_schema: { type: "object", properties: { command: { type: "string" } } },
      },
    ],
    maxTokens: 100,
    signal: new AbortController().signal,
    loadImage: async () => ({ mediaType: "image/png", base64: "iVBORw0KGgo=" }),
  };
}

describe("body builders", () => {
  test("Anthropic: turn after turn (a sliding context, images, empty messages), the bytes match a full serialisation", async () => {
    const builder = new AnthropicBodyBuilder();
    const all = conversation(40);
    // The builder remembers the last request's end of the prefix a prune keeps: given it too.
    let anchor: Message | undefined;
    for (let n = 1; n <= all.length; n += 3) {
      const context = n > 30 ? [all[0]!, ...all.slice(n - 20, n)] : all.slice(0, n);
      const { body } = await builder.build(request(context), "claude-x");
      expect(body).toBe(JSON.stringify(await toAnthropicParams(request(context), "claude-x", anchor)));
      anchor = context[stablePrefixEnd(context)];
    }
  });

  test("OpenAI: the same, for a chat model and a reasoning model, with and without a system prompt", async () => {
    for (const model of ["gpt-4o", "gpt-5.4"]) {
      const builder = new OpenAIBodyBuilder();
      const all = conversation(40);
      for (let n = 1; n <= all.length; n += 3) {
        const context = n > 30 ? [all[0]!, ...all.slice(n - 20, n)] : all.slice(0, n);
        const req = n % 2 ? request(context) : { ...request(context), system: "" };
        const { body } = await builder.build(req, model);
        expect(body).toBe(JSON.stringify(await toOpenAIParams(req, model)));
      }
    }
  });
});

describe("on the wire", () => {
  let fake: FakeLLM;
  let proxy: ReturnType<typeof Bun.serve>;
  const bodies: string[] = [];
  beforeAll(async () => {
    fake = await startFakeLLM(() => ({ text: "ok" }));
    // Records the exact bytes, then passes the request on to the fake.
    proxy = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const text = await req.text();
        bodies.push(text);
        return fetch(fake.url + new URL(req.url).pathname, { method: "POST", headers: req.headers, body: text });
      },
    });
  });
  afterAll(async () => {
    await proxy.stop(true);
    await fake.stop();
  });

  test("Anthropic: the SDK sends the built body unchanged", async () => {
    const provider = new AnthropicProvider({
      apiKey: "k",
      baseUrl: `http://127.0.0.1:${proxy.port}`,
      model: "claude-x",
    });
    const all = conversation(6).slice(0, -1);
    for (const n of [1, 5, 9, 13]) {
      const context = all.slice(0, n);
      const turn = await provider.stream(request(context), { onText: () => undefined });
      expect(turn.content).toEqual([{ type: "text", text: "ok" }]);
      expect(bodies.at(-1)).toBe(JSON.stringify(await toAnthropicParams(request(context), "claude-x")));
    }
    expect(fake.rejected).toEqual([]);
  });

  test("OpenAI: the SDK sends the built body unchanged", async () => {
    const provider = new OpenAIProvider({ apiKey: "k", baseUrl: `http://127.0.0.1:${proxy.port}/v1`, model: "gpt-x" });
    const all = conversation(6).slice(0, -1);
    for (const n of [1, 5, 9, 13]) {
      const context = all.slice(0, n);
      const turn = await provider.stream(request(context), { onText: () => undefined });
      expect(turn.content).toEqual([{ type: "text", text: "ok" }]);
      expect(bodies.at(-1)).toBe(JSON.stringify(await toOpenAIParams(request(context), "claude-x")));
    }
    expect(fake.rejected).toEqual([]);
  });
});
