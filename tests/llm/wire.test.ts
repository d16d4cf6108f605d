// What each provider puts on the wire for one conversation with images, tool calls and tool
// results, read back from the fake server's recorded request bodies.

import { afterEach, expect, test } from "bun:test";
import type { Message } from "../../src/protocol/message.ts";
import type { ToolSpec } from "../../src/llm/types.ts";
import { startFakeLLM, type FakeLLM } from "../support/fake-llm.ts";
import { message, providerFor, request, streamCollect } from "./request.ts";

let fake: FakeLLM | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

const png = { sha256: "abc", mediaType: "image/png", bytes: 10 };
const shot = { sha256: "def", mediaType: "image/jpeg", bytes: 20 };
const b64 = (sha: string) => Buffer.from(`image ${sha}`).toString("base64");

const conversation: Message[] = [
  message("user", "Describe this", { type: "image", image: png }),
  message(
    "assistant",
    "Looking.",
    { type: "tool_use", id: "tu1", name: "Read", input: { path: "a.png" } },
    { type: "tool_use", id: "tu2", name: "Bash", input: { command: "false" } },
  ),
  message(
    "user",
    "also this",
    {
      type: "tool_result",
      tool_use_id: "tu1",
      content: [
        { type: "text", text: "here" },
        { type: "image", image: shot },
      ],
    },
    { type: "tool_result", tool_use_id: "tu2", content: "exit 1", is_error: true },
  ),
  message("assistant", ""),
];

const tools: ToolSpec[] = [
  {
    name: "Read",
    description: "Reads a file.",
    input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

test("anthropic: blocks, base64 images, tool results first, system and cache breakpoints", async () => {
  fake = await startFakeLLM([{ text: "ok" }]);
  await streamCollect(
    providerFor("anthropic", fake),
    request({ system: "Be brief.", messages: conversation, tools, maxTokens: 777 }),
  );
  const body = fake.requests[0]!.body;
  expect(body.max_tokens).toBe(777);
  expect(body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
  // The system prompt's breakpoint caches the tools before it: the tools carry none of their own.
  expect(body.tools).toEqual([tools[0]]);
  expect(body.messages).toEqual([
    {
      role: "user",
      content: [
        { type: "text", text: "Describe this" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: b64("abc") } },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Looking." },
        { type: "tool_use", id: "tu1", name: "Read", input: { path: "a.png" } },
        { type: "tool_use", id: "tu2", name: "Bash", input: { command: "false" } },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "tu1",
          content: [
            { type: "text", text: "here" },
            { type: "image", source: { type: "base64", media_type: "image/jpeg", data: b64("def") } },
          ],
        },
        { type: "tool_result", tool_use_id: "tu2", content: "exit 1", is_error: true },
        { type: "text", text: "also this", cache_control: { type: "ephemeral" } },
      ],
    },
  ]);
});

test("openai: system message, tool_calls, role tool messages, images as data URLs after tool results", async () => {
  fake = await startFakeLLM([{ text: "ok" }]);
  await streamCollect(
    providerFor("openai", fake),
    request({ system: "Be brief.", messages: conversation, tools, maxTokens: 777 }),
  );
  const body = fake.requests[0]!.body;
  expect(body.max_tokens).toBe(777);
  expect(body.stream_options).toEqual({ include_usage: true });
  expect(body.tools).toEqual([
    { type: "function", function: { name: "Read", description: "Reads a file.", parameters: tools[0]!.input_schema } },
  ]);
  expect(body.messages).toEqual([
    { role: "system", content: "Be brief." },
    {
      role: "user",
      content: [
        { type: "text", text: "Describe this" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${b64("abc")}` } },
      ],
    },
    {
      role: "assistant",
      content: "Looking.",
      tool_calls: [
        { id: "tu1", type: "function", function: { name: "Read", arguments: '{"path":"a.png"}' } },
        { id: "tu2", type: "function", function: { name: "Bash", arguments: '{"command":"false"}' } },
      ],
    },
    { role: "tool", tool_call_id: "tu1", content: "here\n[image: attached in the next message]" },
    { role: "tool", tool_call_id: "tu2", content: "Error: exit 1" },
    {
      role: "user",
      content: [
        { type: "image_url", image_url: { url: `data:image/jpeg;base64,${b64("def")}` } },
        { type: "text", text: "also this" },
      ],
    },
  ]);
});

test("openai: reasoning models get max_completion_tokens; no tools means no tools key", async () => {
  fake = await startFakeLLM([{ text: "ok" }, { text: "ok" }]);
  await streamCollect(providerFor("openai", fake, "o3-mini"), request({ maxTokens: 500 }));
  await streamCollect(providerFor("openai", fake, "llama3.1:8b"), request({ maxTokens: 500 }));
  const [reasoning, local] = fake.requests.map((r) => r.body);
  expect(reasoning.max_completion_tokens).toBe(500);
  expect(reasoning.max_tokens).toBeUndefined();
  expect(local.max_tokens).toBe(500);
  expect(local.model).toBe("llama3.1:8b");
  expect(local.tools).toBeUndefined();
  expect(local.messages).toEqual([
    { role: "system", content: "You are a test." },
    { role: "user", content: "hello" },
  ]);
});

test("request.model overrides the provider's model; an empty system prompt is left out", async () => {
  fake = await startFakeLLM([{ text: "ok" }]);
  await streamCollect(providerFor("anthropic", fake), request({ model: "claude-other", system: "" }));
  expect(fake.requests[0]!.body.model).toBe("claude-other");
  expect(fake.requests[0]!.body.system).toBeUndefined();
});
