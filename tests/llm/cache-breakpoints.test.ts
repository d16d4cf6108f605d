// Where the breakpoints inside the conversation go (a table of histories → marked messages), and
// what that buys against the fake that bills the cache as the API does: after a prune, short or
// long, the next request reads everything before the first output the prune changed.
import { describe, expect, test } from "bun:test";
import { AnthropicBodyBuilder } from "../../src/llm/anthropic-body.ts";
import { toAnthropicParams } from "../../src/llm/anthropic-wire.ts";
import { innerBreakpoints } from "../../src/llm/cache-breakpoints.ts";
import type { Message } from "../../src/protocol/message.ts";
import { FakePromptCache, anthropicBlocks } from "../support/fake-cache.ts";
import { message, request } from "./request.ts";

const BIG = "x".repeat(2000);
const NOTE = '[output of Bash "cat f" cleared from the context to save space (2000 characters); the archive keeps it]';
const call = (i: number) => message("assistant", { type: "tool_use", id: `c${i}`, name: "Bash", input: { n: i } });
const output = (i: number, text: string) =>
  message("user", { type: "tool_result", tool_use_id: `c${i}`, content: text });
const record = (): Message => ({ ...message("user", "Summary of the work so far."), isSummary: true });

/** A history from letters: T task, R record, C call, O large output, N pruned note, S short output. */
function history(shape: string): Message[] {
  let i = 0;
  return [...shape].map((c) => {
    if (c === "T") return message("user", "the task");
    if (c === "R") return record();
    if (c === "C") return call(++i);
    const text = c === "O" ? BIG : c === "N" ? NOTE : "exit 0";
    return output(i, text);
  });
}

describe("innerBreakpoints: history → the messages marked before the end", () => {
  const rows: Array<[string, string, number[]]> = [
    ["a lone prompt", "T", []],
    ["only the newest output is large (the end's breakpoint covers it)", "TCNCNCO", []],
    ["notes, then large outputs: the call before the oldest large one", "TCNCNCOCO", [5]],
    ["short outputs are never pruned, so they stay inside the kept prefix", "TCSCSCOCO", [5]],
    ["a record and large outputs after it: the record, the call before the first", "RCNCOCO", [0, 3]],
    ["a large output right after the record: the record once", "ROCO", [0]],
    ["large outputs before the record are not looked at", "TCOCORCNCO", [5]],
    ["the newest of two records", "RCORCO", [3]],
  ];
  for (const [name, shape, expected] of rows)
    test(name, () => expect(innerBreakpoints(history(shape))).toEqual(expected));
});

describe("innerBreakpoints with the last request's end of the kept prefix (the anchor)", () => {
  const rows: Array<[string, string, number, number[]]> = [
    ["a prune moved it on: the anchor takes the record's place", "RCNCNCNCOCO", 3, [3, 7]],
    ["a prune cleared every output but the newest: the anchor alone", "RCNCNCNCO", 3, [3]],
    ["nothing moved: the record stays", "RCNCOCO", 3, [0, 3]],
    ["the anchor is no longer in the context (a condense): the record", "RCNCOCO", -1, [0, 3]],
  ];
  for (const [name, shape, anchor, expected] of rows)
    test(name, () => {
      const messages = history(shape);
      const gone = message("assistant", "condensed away");
      expect(innerBreakpoints(messages, anchor >= 0 ? messages[anchor] : gone)).toEqual(expected);
    });
});

/** The fake's billing of one request made of `messages`, built as the provider builds it. */
async function bill(cache: FakePromptCache, builder: AnthropicBodyBuilder, messages: Message[]) {
  const { body } = await builder.build(request({ system: "s".repeat(6000), messages }), "m");
  const blocks = anthropicBlocks(JSON.parse(body));
  return {
    usage: cache.anthropic(
      JSON.parse(body),
      blocks.reduce((n, b) => n + b.tokens, 0),
    ),
    blocks,
  };
}

describe("after a prune, the next request reads everything before the first output it changed", () => {
  // Outputs 1 to 4 pruned before turn 6; then, before turn `last`, outputs 5 to last - 1 in one step
  // (a long step leaves more than the API's 20-block lookback between the two prefix ends).
  for (const last of [12, 30]) {
    test(`a second prune of ${last - 5} outputs`, async () => {
      const cache = new FakePromptCache(() => 0);
      const builder = new AnthropicBodyBuilder();
      const messages: Message[] = [message("user", "the task")];
      for (let i = 1; i <= last; i++) {
        messages.push(call(i), output(i, BIG));
        if (i === 6) for (let j = 1; j <= 4; j++) messages[2 * j] = output(j, NOTE);
        if (i < last) await bill(cache, builder, messages);
      }
      for (let j = 5; j < last; j++) messages[2 * j] = output(j, NOTE);
      const { usage, blocks } = await bill(cache, builder, messages);
      // Tools none, the system prompt 1 block, then one block a message: output 5 is block 1 + 10.
      const before = blocks.slice(0, 11).reduce((n, b) => n + b.tokens, 0);
      expect(usage.read).toBe(before);
      // Written: only the notes, the calls between them and the new output.
      expect(usage.write).toBe(blocks.slice(11).reduce((n, b) => n + b.tokens, 0));
    });
  }
});

test("the fake, as the API: a request that sets tool_choice misses the messages' cache (so a summary call never does)", async () => {
  const cache = new FakePromptCache(() => 0);
  const messages = [message("user", "the task"), call(1), output(1, BIG)];
  const params = await toAnthropicParams(request({ system: "s".repeat(6000), messages }), "m");
  const total = (body: unknown) => anthropicBlocks(body).reduce((n, b) => n + b.tokens, 0);
  cache.anthropic(params, total(params));
  const system = anthropicBlocks(params)[0]!.tokens;
  const again = { ...params, tool_choice: { type: "none" } };
  expect(cache.anthropic(again, total(again)).read).toBe(system);
  expect(cache.anthropic(params, total(params)).read).toBe(total(params));
});
