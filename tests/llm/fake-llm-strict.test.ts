// The fake LLM server refuses what the real APIs refuse, with their error bodies: every e2e test
// against it then checks that each request Synapse sends is a valid conversation.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeLLM, type FakeLLM } from "../support/fake-llm.ts";

let fake: FakeLLM;
let windowed: FakeLLM;
beforeAll(async () => {
  fake = await startFakeLLM(() => ({ text: "ok" }));
  windowed = await startFakeLLM(() => ({ text: "ok" }), { contextWindow: 100 });
});
afterAll(async () => {
  await fake.stop();
  await windowed.stop();
});

/** Streamed, as Synapse asks; `body` is the parsed error for a refusal, `text` the raw response. */
async function post(base: string, path: string, body: object): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ stream: true, ...body }),
  });
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an SSE stream: a success
  }
  return { status: res.status, body: parsed, text };
}

const use = (id: string) => ({ type: "tool_use", id, name: "Bash", input: { command: "ls" } });
const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "a.txt" });

describe("anthropic", () => {
  const cases: Array<[string, object[], RegExp | null]> = [
    ["empty list", [], /at least one message is required/],
    [
      "first message from the assistant",
      [
        { role: "assistant", content: "hi" },
        { role: "user", content: "go" },
      ],
      /first message must use the "user" role/,
    ],
    [
      "empty text block",
      [{ role: "user", content: [{ type: "text", text: "" }] }],
      /text content blocks must be non-empty/,
    ],
    ["empty content", [{ role: "user", content: [] }], /must have non-empty content/],
    [
      "tool_use without its result",
      [
        { role: "user", content: "go" },
        { role: "assistant", content: [use("t1")] },
        { role: "user", content: "next" },
      ],
      /`tool_use` ids were found without `tool_result` blocks immediately after: t1/,
    ],
    [
      "tool_use last",
      [
        { role: "user", content: "go" },
        { role: "assistant", content: [use("t1")] },
      ],
      /without `tool_result`/,
    ],
    [
      "stray tool_result",
      [
        { role: "user", content: "go" },
        { role: "assistant", content: "ok" },
        { role: "user", content: [result("t9")] },
      ],
      /unexpected `tool_use_id` found in `tool_result` blocks: t9/,
    ],
    ["tool_result first", [{ role: "user", content: [result("t1")] }], /unexpected `tool_use_id`/],
    [
      "a valid tool exchange",
      [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "text", text: "sure" }, use("t1")] },
        { role: "user", content: [result("t1"), { type: "text", text: "more" }] },
      ],
      null,
    ],
  ];
  for (const [name, messages, error] of cases) {
    test(name, async () => {
      const res = await post(fake.url, "/v1/messages", { model: "claude-x", max_tokens: 10, messages });
      if (!error) return expect(res.status).toBe(200);
      expect(res.status).toBe(400);
      expect(res.body.type).toBe("error");
      expect(res.body.error.type).toBe("invalid_request_error");
      expect(res.body.error.message).toMatch(error);
    });
  }

  test("a prompt over the context window", async () => {
    const res = await post(windowed.url, "/v1/messages", {
      model: "claude-x",
      messages: [{ role: "user", content: "x".repeat(1000) }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^prompt is too long: \d+ tokens > 100 maximum$/);
    expect(
      (await post(windowed.url, "/v1/messages", { model: "claude-x", messages: [{ role: "user", content: "hi" }] }))
        .status,
    ).toBe(200);
  });

  test("a rejected request uses up no scripted reply", async () => {
    const f = await startFakeLLM([{ text: "first" }]);
    try {
      expect((await post(f.url, "/v1/messages", { messages: [] })).status).toBe(400);
      expect((await post(f.url, "/v1/messages", { messages: [{ role: "user", content: "hi" }] })).text).toContain(
        '"text":"first"',
      );
    } finally {
      await f.stop();
    }
  });
});

describe("openai", () => {
  const call = (id: string) => ({ id, type: "function", function: { name: "Bash", arguments: "{}" } });
  const cases: Array<[string, object[], RegExp | null, string | null]> = [
    ["empty list", [], /is too short - 'messages'/, null],
    [
      "first message from the assistant",
      [
        { role: "system", content: "s" },
        { role: "assistant", content: "hi" },
      ],
      /role 'user'/,
      null,
    ],
    [
      "tool message without its tool_calls",
      [
        { role: "user", content: "go" },
        { role: "assistant", content: "ok" },
        { role: "tool", tool_call_id: "c1", content: "x" },
      ],
      /must be a response to a preceeding message with 'tool_calls'/,
      null,
    ],
    [
      "a call without its answer",
      [
        { role: "user", content: "go" },
        { role: "assistant", content: null, tool_calls: [call("c1"), call("c2")] },
        { role: "tool", tool_call_id: "c1", content: "x" },
      ],
      /did not have response messages: c2/,
      null,
    ],
    [
      "a valid tool exchange",
      [
        { role: "system", content: "s" },
        { role: "user", content: "go" },
        { role: "assistant", content: null, tool_calls: [call("c1")] },
        { role: "tool", tool_call_id: "c1", content: "x" },
      ],
      null,
      null,
    ],
  ];
  for (const [name, messages, error] of cases) {
    test(name, async () => {
      const res = await post(fake.url, "/v1/chat/completions", { model: "gpt-x", messages });
      if (!error) return expect(res.status).toBe(200);
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("invalid_request_error");
      expect(res.body.error.message).toMatch(error);
      expect("param" in res.body.error && "code" in res.body.error).toBe(true);
    });
  }

  test("a prompt over the context window: context_length_exceeded", async () => {
    const res = await post(windowed.url, "/v1/chat/completions", {
      model: "gpt-x",
      messages: [{ role: "user", content: "x".repeat(1000) }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("context_length_exceeded");
    expect(res.body.error.message).toMatch(/maximum context length is 100 tokens/);
  });
});
