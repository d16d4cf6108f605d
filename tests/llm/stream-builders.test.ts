// The pure stream folders, fed the shapes that OpenAI-compatible and Anthropic-compatible servers
// send beyond the official transcripts.

import { expect, test } from "bun:test";
import { AnthropicTurnBuilder } from "../../src/llm/anthropic-stream.ts";
import { OpenAITurnBuilder } from "../../src/llm/openai-stream.ts";
import { parseToolInput } from "../../src/llm/tool-input.ts";

test("anthropic: cached prompt tokens count as input; unknown events and thinking blocks are ignored", () => {
  const texts: string[] = [];
  const b = new AnthropicTurnBuilder((t) => texts.push(t));
  b.add({
    type: "message_start",
    message: {
      usage: { input_tokens: 5, cache_read_input_tokens: 1000, cache_creation_input_tokens: 20, output_tokens: 1 },
    },
  });
  b.add({ type: "content_block_start", index: 0, content_block: { type: "thinking" } });
  b.add({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta" } });
  b.add({ type: "brand_new_event" });
  b.add({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } });
  b.add({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi" } });
  b.add({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 7 } });
  expect(b.complete).toBe(true);
  expect(b.finish()).toEqual({
    content: [{ type: "text", text: "Hi" }],
    stopReason: "end_turn",
    usage: { input_tokens: 1025, output_tokens: 7, cache_read_input_tokens: 1000, cache_creation_input_tokens: 20 },
  });
  expect(texts).toEqual(["Hi"]);
});

test("anthropic: a tool input sent whole in content_block_start, with no deltas, is kept", () => {
  const b = new AnthropicTurnBuilder(() => {});
  b.add({
    type: "content_block_start",
    index: 0,
    content_block: { type: "tool_use", id: "t", name: "Read", input: { path: "x" } },
  });
  b.add({ type: "content_block_stop", index: 0 });
  b.add({ type: "message_stop" });
  expect(b.finish().content).toEqual([{ type: "tool_use", id: "t", name: "Read", input: { path: "x" } }]);
});

test("anthropic: without message_delta or message_stop the turn is incomplete", () => {
  const b = new AnthropicTurnBuilder(() => {});
  b.add({ type: "message_start", message: { usage: { input_tokens: 1 } } });
  expect(b.complete).toBe(false);
});

test("openai: calls without index, arguments as an object, 'stop' despite tool calls", () => {
  const b = new OpenAITurnBuilder(() => {});
  b.add({ choices: [{ delta: { role: "assistant", content: null } as never }] });
  b.add({ choices: [{ delta: { tool_calls: [{ id: "a", function: { name: "Read", arguments: '{"path":' } }] } }] });
  b.add({ choices: [{ delta: { tool_calls: [{ function: { arguments: '"x"}' } }] } }] });
  b.add({
    choices: [{ delta: { tool_calls: [{ id: "b", function: { name: "Glob", arguments: { pattern: "*.ts" } } }] } }],
  });
  b.add({ choices: [{ delta: {}, finish_reason: "stop" }] });
  const turn = b.finish();
  expect(turn.stopReason).toBe("tool_use");
  expect(turn.content).toEqual([
    { type: "tool_use", id: "a", name: "Read", input: { path: "x" } },
    { type: "tool_use", id: "b", name: "Glob", input: { pattern: "*.ts" } },
  ]);
});

test("openai: a missing call id is generated; length maps to max_tokens; refusals are text", () => {
  const texts: string[] = [];
  const b = new OpenAITurnBuilder((t) => texts.push(t));
  b.add({ choices: [{ index: 0, delta: { refusal: "I can't" } }] });
  b.add({ choices: [{ index: 0, delta: {}, finish_reason: "length" }] });
  b.add({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } });
  expect(b.finish()).toEqual({
    content: [{ type: "text", text: "I can't" }],
    stopReason: "max_tokens",
    usage: { input_tokens: 3, output_tokens: 4 },
  });
  const c = new OpenAITurnBuilder(() => {});
  c.add({
    choices: [
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { name: "Read", arguments: "{}" } }] },
        finish_reason: "tool_calls",
      },
    ],
  });
  const [call] = c.finish().content as Array<{ id: string }>;
  expect(call!.id).toStartWith("call_");
  expect(texts).toEqual(["I can't"]);
});

test("parseToolInput: objects pass, anything else is kept raw for an error result", () => {
  expect(parseToolInput("")).toEqual({ input: {} });
  expect(parseToolInput("  ")).toEqual({ input: {} });
  expect(parseToolInput('{"a":1}')).toEqual({ input: { a: 1 } });
  // Anything but an object is carried as its raw text, beside an empty input the API accepts.
  expect(parseToolInput("[1,2]")).toEqual({ input: {}, raw_input: "[1,2]" });
  expect(parseToolInput('"text"')).toEqual({ input: {}, raw_input: '"text"' });
  expect(parseToolInput('{"a":')).toEqual({ input: {}, raw_input: '{"a":' });
  // A key the model itself sends is just a parameter now, never mistaken for a parse failure.
  expect(parseToolInput('{"__invalid_json":"x"}')).toEqual({ input: { __invalid_json: "x" } });
});

test("openai: cached prompt tokens are read from prompt_tokens_details, and still count as input", () => {
  const b = new OpenAITurnBuilder(() => {});
  b.add({ choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] });
  b.add({
    choices: [],
    usage: { prompt_tokens: 5000, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 4864 } },
  });
  expect(b.finish().usage).toEqual({ input_tokens: 5000, output_tokens: 4, cache_read_input_tokens: 4864 });
});
