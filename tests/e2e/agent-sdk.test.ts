// The Claude Agent SDK drives the compiled binary (pathToClaudeCodeExecutable) against the fake
// LLM: its real query(), its real control protocol, over the binary's stdin and stdout.

import { describe, expect, test } from "bun:test";
import { collect, ofType, promptStream, sdkOptions } from "../support/agent-sdk.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();

describe("query() with a string prompt", () => {
  test("init, the assistant's answer and one result with the session id", async () => {
    const s = await serve([{ text: "Hello from the model." }]);
    const run = await collect("say hello", sdkOptions(s.url));
    expect(run.error).toBeUndefined();
    const init = ofType(run.messages, "system").find((m) => m.subtype === "init");
    expect(init).toMatchObject({ subtype: "init", permissionMode: "default" });
    const results = ofType(run.messages, "result");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ subtype: "success", is_error: false, result: "Hello from the model." });
    expect(results[0]!.session_id).toBe(init!.session_id);
    // The fields the SDK's SDKResultMessage declares, as programs read them.
    const r = results[0]!;
    expect(typeof r.duration_api_ms).toBe("number");
    expect(Object.values(r.modelUsage).map((u) => u.outputTokens)).toEqual([r.usage.output_tokens]);
    const assistant = ofType(run.messages, "assistant");
    expect(assistant.at(-1)!.message.content as unknown).toEqual([{ type: "text", text: "Hello from the model." }]);
  });
});

describe("streaming input", () => {
  test("two user messages are two turns, in order, in one session", async () => {
    const s = await serve([{ text: "first answer" }, { text: "second answer" }]);
    const input = promptStream();
    input.send("one");
    input.send("two");
    input.end();
    const run = await collect(input.messages, sdkOptions(s.url));
    expect(run.error).toBeUndefined();
    const results = ofType(run.messages, "result");
    expect(results.map((r) => r.subtype === "success" && r.result)).toEqual(["first answer", "second answer"]);
    expect(results[0]!.session_id).toBe(results[1]!.session_id);
    // The second request carries the first turn.
    const texts = JSON.stringify(s.requests[1]!.body.messages);
    expect(texts).toContain("one");
    expect(texts).toContain("first answer");
  });

  test("--include-partial-messages: stream_event text deltas before the assistant line", async () => {
    const s = await serve([{ text: "partial pieces here", chunkDelayMs: 5 }]);
    const run = await collect("go", sdkOptions(s.url, { includePartialMessages: true }));
    const events = ofType(run.messages, "stream_event");
    const deltas = events.flatMap((e) =>
      e.event.type === "content_block_delta" && e.event.delta.type === "text_delta" ? [e.event.delta.text] : [],
    );
    expect(deltas.join("")).toBe("partial pieces here");
    expect(events[0]!.event.type).toBe("message_start");
    const lastEvent = run.messages.indexOf(events.at(-1)!);
    const assistant = run.messages.findIndex((m) => m.type === "assistant");
    expect(lastEvent).toBeLessThan(assistant);
  });
});

describe("images", () => {
  test("a base64 image block of a user message reaches the model with the text", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const s = await serve([{ text: "a dot" }]);
    async function* messages() {
      yield {
        type: "user" as const,
        message: {
          role: "user" as const,
          content: [
            { type: "text" as const, text: "what is this?" },
            {
              type: "image" as const,
              source: { type: "base64" as const, media_type: "image/png" as const, data: png },
            },
          ],
        },
        parent_tool_use_id: null,
        session_id: "",
      };
    }
    const run = await collect(messages(), sdkOptions(s.url));
    expect(run.error).toBeUndefined();
    const content = s.requests[0]!.body.messages.at(-1).content;
    expect(content).toContainEqual(expect.objectContaining({ type: "text", text: "what is this?" }));
    expect(content).toContainEqual(
      expect.objectContaining({
        type: "image",
        source: expect.objectContaining({ media_type: "image/png", data: png }),
      }),
    );
  });
});

describe("system prompt", () => {
  const systemText = (body: any): string =>
    typeof body.system === "string" ? body.system : body.system.map((b: any) => b.text).join("");

  test("systemPrompt replaces Synapse's own; the preset's append follows Synapse's own", async () => {
    const s = await serve([{ text: "arr" }, { text: "ok" }]);
    await collect("hi", sdkOptions(s.url, { systemPrompt: "You are a pirate." }));
    expect(systemText(s.requests[0]!.body)).toBe("You are a pirate.");
    await collect(
      "hi",
      sdkOptions(s.url, { systemPrompt: { type: "preset", preset: "claude_code", append: "Be brief." } }),
    );
    const appended = systemText(s.requests[1]!.body);
    expect(appended.endsWith("\n\nBe brief.")).toBe(true);
    expect(appended.length).toBeGreaterThan(200);
  });
});
