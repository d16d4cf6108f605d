// The note a turn cut at the output limit leaves in its tool results: pure.

import { expect, test } from "bun:test";
import { hitOutputLimit, noteCutCalls, outputLimitNote } from "../../src/agent/output-limit.ts";
import type { ContentBlock, ToolUseBlock } from "../../src/protocol/message.ts";

const call = (id: string, input: unknown, raw_input?: string): ToolUseBlock => ({
  type: "tool_use",
  id,
  name: "Write",
  input,
  raw_input,
});
const result = (id: string, content: any): ContentBlock => ({
  type: "tool_result",
  tool_use_id: id,
  content,
  is_error: true,
});
const cutJson = (c: ToolUseBlock) => c.raw_input !== undefined;

test.each([
  ["max_tokens", true],
  ["length", true],
  ["end_turn", false],
  ["tool_use", false],
  [undefined, false],
])("hitOutputLimit(%p) = %p", (reason, expected) => {
  expect(hitOutputLimit(reason)).toBe(expected);
});

test("the note goes to the calls whose JSON was cut, after their own result", () => {
  const calls = [call("a", { path: "x" }), call("b", {}, '{"path":"y","content":"ab')];
  const out = noteCutCalls(
    calls,
    [result("a", "ok"), result("b", "The tool input was not valid JSON")],
    outputLimitNote(100),
    cutJson,
  );
  expect(out[0]).toEqual(result("a", "ok"));
  expect((out[1] as any).content).toBe(`The tool input was not valid JSON\n\n${outputLimitNote(100)}`);
  expect(outputLimitNote(100)).toContain("output limit of 100 tokens");
  expect(outputLimitNote(100)).toMatch(/^[\x20-\x7e]+$/);
});

test("with no cut JSON the last call gets it; block content gets a text block", () => {
  const calls = [call("a", {}), call("b", {})];
  const out = noteCutCalls(calls, [result("a", "ok"), result("b", [{ type: "text", text: "done" }])], "NOTE", cutJson);
  expect(out[0]).toEqual(result("a", "ok"));
  expect((out[1] as any).content).toEqual([
    { type: "text", text: "done" },
    { type: "text", text: "NOTE" },
  ]);
});
