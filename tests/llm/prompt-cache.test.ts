// The prompt cache on the wire: where Synapse puts Anthropic's cache breakpoints (system, the
// newest compaction record, the end of the prefix a prune keeps, the moving end; never more than
// 4), the same bytes from the body builder, prompt_cache_key on OpenAI's own API only, and the cache reads and writes each API's
// usage reports, read by the stream parsers from the fake that bills them as the APIs do.
import { afterEach, describe, expect, test } from "bun:test";
import { AnthropicBodyBuilder } from "../../src/llm/anthropic-body.ts";
import { toAnthropicParams } from "../../src/llm/anthropic-wire.ts";
import { summaryIndex } from "../../src/llm/cache-breakpoints.ts";
import { isOpenAIHost } from "../../src/llm/openai.ts";
import { toOpenAIParams } from "../../src/llm/openai-wire.ts";
import type { Message } from "../../src/protocol/message.ts";
import { type FakeLLM, startFakeLLM } from "../support/fake-llm.ts";
import { breakpointProblem } from "../support/fake-cache.ts";
import { message, providerFor, request, streamCollect } from "./request.ts";

const tools = [{ name: "Bash", description: "runs", input_schema: { type: "object" as const, properties: {} } }];
const marks = (body: unknown) => (JSON.stringify(body).match(/"cache_control"/g) ?? []).length;

/** A condensed conversation: the record (a summary), its kept turns, and turns after. */
function condensed(turnsAfter: number): Message[] {
  const record: Message = { ...message("user", "Summary of the work so far: read f0 to f9."), isSummary: true };
  const out: Message[] = [record];
  for (let i = 0; i < turnsAfter; i++) {
    out.push(message("assistant", { type: "tool_use", id: `c${i}`, name: "Bash", input: { command: `cat f${i}` } }));
    out.push(message("user", { type: "tool_result", tool_use_id: `c${i}`, content: `out ${i}`.repeat(100) }));
  }
  return out;
}

/** Which wire messages carry a breakpoint, by index. */
const markedAt = (params: { messages: unknown[] }) =>
  params.messages.flatMap((m, i) => (JSON.stringify(m).includes("cache_control") ? [i] : []));

describe("Anthropic breakpoints", () => {
  test("system, the record, the prefix a prune keeps and the end: 4, the bytes of the body builder", async () => {
    const messages = condensed(3);
    const req = request({ messages, tools });
    const params = await toAnthropicParams(req, "claude-x");
    expect(marks(params)).toBe(4);
    // The record, then the call before the oldest output a prune may clear, then the end.
    expect(markedAt(params)).toEqual([0, 1, 6]);
    expect(JSON.stringify(params.tools)).not.toContain("cache_control");
    const { body } = await new AnthropicBodyBuilder().build(req, "claude-x");
    expect(body).toBe(JSON.stringify(params));
  });

  test("without a record: the system prompt and the end; a record that is the last message is marked once", async () => {
    expect(marks(await toAnthropicParams(request({ tools, messages: [message("user", "task")] }), "m"))).toBe(2);
    expect(marks(await toAnthropicParams(request({ tools, messages: condensed(0) }), "m"))).toBe(2);
  });

  test("without a system prompt the last tool carries the breakpoint", async () => {
    const params = await toAnthropicParams(request({ system: "", tools, messages: [message("user", "task")] }), "m");
    expect(JSON.stringify(params.tools?.at(-1))).toContain("cache_control");
    expect(marks(params)).toBe(2);
  });

  test("only the newest record is marked", () => {
    const older = condensed(1);
    const newer = condensed(1);
    expect(summaryIndex([...older, ...newer])).toBe(older.length);
  });

  test("the fake refuses a fifth breakpoint with the API's own message", () => {
    const block = { type: "text", text: "x", cache_control: { type: "ephemeral" } };
    const body = { system: [block], messages: [{ role: "user", content: [block, block, block, block] }] };
    expect(breakpointProblem(body)).toBe("A maximum of 4 blocks with cache_control may be provided. Found 5.");
    expect(breakpointProblem({ ...body, system: "plain" })).toBeUndefined();
  });
});

describe("prompt_cache_key", () => {
  test("sent as the session id, to OpenAI's own API only", async () => {
    expect((await toOpenAIParams(request({ cacheKey: "20260101-000000-abcdef" }), "gpt-5")).prompt_cache_key).toBe(
      "20260101-000000-abcdef",
    );
    expect("prompt_cache_key" in (await toOpenAIParams(request(), "gpt-5"))).toBe(false);
    expect(
      [undefined, "https://api.openai.com/v1", "http://127.0.0.1:11434/v1", "not a url"].map(isOpenAIHost),
    ).toEqual([true, true, false, false]);
  });
});

describe("cache usage from the fake, through each provider's stream parser", () => {
  let fake: FakeLLM | undefined;
  afterEach(() => fake?.stop());

  const long = "a long system prompt. ".repeat(800);

  test("Anthropic: the first request writes the prefix, the next reads it and writes only what is new", async () => {
    fake = await startFakeLLM(() => ({ text: "ok" }));
    const provider = providerFor("anthropic", fake);
    const first = [message("user", "task")];
    const a = (await streamCollect(provider, request({ system: long, tools, messages: first }))).turn.usage;
    expect(a.cache_read_input_tokens).toBe(0);
    expect(a.cache_creation_input_tokens).toBeGreaterThan(4000);
    const second = [...first, message("assistant", "ok"), message("user", "more ".repeat(2000))];
    const b = (await streamCollect(provider, request({ system: long, tools, messages: second }))).turn.usage;
    // Everything up to the first request's end was read; the two new messages were written.
    expect(b.cache_read_input_tokens).toBe(a.cache_creation_input_tokens);
    expect(b.cache_creation_input_tokens).toBeGreaterThan(2000);
    expect(b.cache_creation_input_tokens).toBeLessThan(3000);
    // input_tokens counts every prompt token, as OpenAI's prompt_tokens does.
    expect(b.input_tokens).toBeGreaterThanOrEqual(b.cache_read_input_tokens! + b.cache_creation_input_tokens!);
    expect(fake.cache.totals.read).toBe(b.cache_read_input_tokens!);
  });

  test("a request with a fifth breakpoint gets the real API's 400", async () => {
    fake = await startFakeLLM(() => ({ text: "ok" }));
    const block = { type: "text", text: "x", cache_control: { type: "ephemeral" } };
    const body = {
      model: "m",
      max_tokens: 10,
      stream: true,
      system: [block],
      messages: [{ role: "user", content: [block, block, block, block] }],
    };
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toEqual({
      type: "invalid_request_error",
      message: "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    });
  });

  test("Anthropic: an entry older than 5 minutes is gone, and a changed early message misses", async () => {
    let now = 1_000_000;
    fake = await startFakeLLM(() => ({ text: "ok" }), { now: () => now });
    const provider = providerFor("anthropic", fake);
    const messages = [message("user", "task"), message("assistant", "ok"), message("user", "go on")];
    await streamCollect(provider, request({ system: long, tools, messages }));
    now += 4 * 60_000;
    expect(
      (await streamCollect(provider, request({ system: long, tools, messages }))).turn.usage.cache_read_input_tokens,
    ).toBeGreaterThan(4000);
    // Read 4 minutes ago: alive for 5 more. Then 6 minutes with no request: gone.
    now += 6 * 60_000;
    expect(
      (await streamCollect(provider, request({ system: long, tools, messages }))).turn.usage.cache_read_input_tokens,
    ).toBe(0);
    const changed = [message("user", "another task"), ...messages.slice(1)];
    const u = (await streamCollect(provider, request({ system: long, tools, messages: changed }))).turn.usage;
    // The tools and system (their breakpoint) are still a hit; the messages after are written again.
    expect(u.cache_read_input_tokens).toBeGreaterThan(4000);
    expect(u.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(u.cache_creation_input_tokens).toBeLessThan(100);
  });

  test("OpenAI: a repeated prefix of 1,024 tokens or more is read, in steps of 128", async () => {
    fake = await startFakeLLM(() => ({ text: "ok" }));
    const provider = providerFor("openai", fake);
    const messages = [message("user", "task")];
    const a = (await streamCollect(provider, request({ system: long, messages }))).turn.usage;
    expect(a.cache_read_input_tokens).toBe(0);
    const b = (
      await streamCollect(
        provider,
        request({ system: long, messages: [...messages, message("assistant", "ok"), message("user", "next")] }),
      )
    ).turn.usage;
    expect(b.cache_read_input_tokens).toBeGreaterThan(4000);
    expect(b.cache_read_input_tokens! % 128).toBe(0);
    expect(b.cache_creation_input_tokens).toBeUndefined();
  });
});
