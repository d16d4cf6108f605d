// Checks the fake LLM server itself, over plain HTTP: each API's wire format, error bodies, script
// exhaustion, hanging and stalled replies, gates, waiting for requests, and the stand-alone process
// mode used by benches.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();

// The fake is as strict as the real APIs, so a request needs a valid conversation to get a reply.
const HELLO = [{ role: "user", content: "hello" }];

/** Streamed, as Synapse always asks; `stream: false` in `body` to send an unstreamed request. */
function post(url: string, body: object, signal?: AbortSignal): Promise<Response> {
  const valid = { stream: true, ...("messages" in body ? body : { ...body, messages: HELLO }) };
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(valid),
    signal,
  });
}

/** Splits an SSE body into {event, data} records, the way a client would. */
function parseSse(body: string): Array<{ event?: string; data: string }> {
  return body
    .split("\n\n")
    .filter((frame) => frame.trim() !== "")
    .map((frame) => {
      const lines = frame.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7);
      const data = lines
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .join("\n");
      return { event, data };
    });
}

/** The answer's text in a streamed body of either API. */
function sseText(body: string): string {
  return parseSse(body)
    .filter((e) => e.data !== "[DONE]")
    .map((e) => JSON.parse(e.data))
    .map((d) => d.delta?.text ?? d.choices?.[0]?.delta?.content ?? "")
    .join("");
}

const TOOL_INPUT = { path: "src/main.ts", pattern: "needle with spaces", limit: 20 };

describe("anthropic wire format", () => {
  test("SSE: text deltas, fragmented tool input with an empty fragment, ping, cumulative usage", async () => {
    const f = await serve([
      {
        text: "Hello there, world",
        toolCalls: [{ id: "toolu_1", name: "Grep", input: TOOL_INPUT }],
        usage: { input_tokens: 30, output_tokens: 12 },
      },
    ]);
    const res = await post(`${f.url}/v1/messages`, { model: "claude-x", stream: true, messages: HELLO });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await res.text());
    const types = events.map((e) => e.event);
    expect(types[0]).toBe("message_start");
    expect(types).toContain("ping");
    expect(types.slice(-2)).toEqual(["message_delta", "message_stop"]);
    for (const e of events) expect(JSON.parse(e.data).type).toBe(e.event!);

    const data = events.map((e) => JSON.parse(e.data));
    expect(data[0].message.usage.input_tokens).toBe(30);
    const text = data.filter((d) => d.delta?.type === "text_delta").map((d) => d.delta.text);
    expect(text.length).toBeGreaterThan(1);
    expect(text.join("")).toBe("Hello there, world");
    const start = data.find((d) => d.content_block?.type === "tool_use");
    expect(start.content_block).toMatchObject({ id: "toolu_1", name: "Grep", input: {} });
    const fragments = data.filter((d) => d.delta?.type === "input_json_delta").map((d) => d.delta.partial_json);
    expect(fragments[0]).toBe("");
    expect(fragments.length).toBeGreaterThan(2);
    expect(JSON.parse(fragments.join(""))).toEqual(TOOL_INPUT);
    const delta = data.find((d) => d.type === "message_delta");
    expect(delta).toMatchObject({ delta: { stop_reason: "tool_use" }, usage: { output_tokens: 12 } });
  });

  test("errors use the API's body shape, with retry-after when scripted", async () => {
    const f = await serve([{ status: 529, headers: { "retry-after": "3" } }]);
    const res = await post(`${f.url}/v1/messages`, { stream: true });
    expect(res.status).toBe(529);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(res.headers.get("request-id")).toBeTruthy();
    const body: any = await res.json();
    expect(body).toMatchObject({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    expect(body.request_id).toStartWith("req_");
  });

  test("a mid-stream error is an `event: error` after the stream started", async () => {
    const f = await serve([
      { streamError: { type: "overloaded_error", message: "Overloaded" }, text: "partial answer here" },
    ]);
    const events = parseSse(await (await post(`${f.url}/v1/messages`, { stream: true })).text());
    expect(events[0]!.event).toBe("message_start");
    expect(events.at(-1)!.event).toBe("error");
    expect(JSON.parse(events.at(-1)!.data)).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
  });
});

describe("openai wire format", () => {
  test("SSE: role chunk, tool calls by index with id/name only first, finish, usage chunk, [DONE]", async () => {
    const f = await serve([
      {
        toolCalls: [
          { id: "call_a", name: "Read", input: { path: "x" } },
          { name: "Grep", input: TOOL_INPUT },
        ],
      },
    ]);
    const res = await post(`${f.url}/v1/chat/completions`, {
      model: "gpt-x",
      stream: true,
      stream_options: { include_usage: true },
    });
    const events = parseSse(await res.text());
    expect(events.every((e) => e.event === undefined)).toBe(true);
    expect(events.at(-1)!.data).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks[0].choices[0].delta).toMatchObject({ role: "assistant", content: null });
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    for (const index of [0, 1]) {
      const mine = calls.filter((c: any) => c.index === index);
      expect(mine[0].id).toBeTruthy();
      expect(mine[0].function.name).toBeTruthy();
      expect(mine.slice(1).every((c: any) => c.id === undefined && c.function.name === undefined)).toBe(true);
      expect(mine.length).toBeGreaterThan(2);
    }
    const args = calls
      .filter((c: any) => c.index === 1)
      .map((c: any) => c.function.arguments)
      .join("");
    expect(JSON.parse(args)).toEqual(TOOL_INPUT);
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
    const usage = chunks.at(-1);
    expect(usage.choices).toEqual([]);
    expect(usage.usage.total_tokens).toBe(usage.usage.prompt_tokens + usage.usage.completion_tokens);
  });

  test("no usage chunk unless include_usage; text arrives in several deltas", async () => {
    const f = await serve([{ text: "one two three four" }]);
    const events = parseSse(await (await post(`${f.url}/v1/chat/completions`, { stream: true })).text());
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks.some((c) => c.usage)).toBe(false);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "");
    expect(text.join("")).toBe("one two three four");
    expect(text.filter(Boolean).length).toBeGreaterThan(1);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
  });

  test("error bodies", async () => {
    const f = await serve([{ status: 429, headers: { "retry-after": "1" } }]);
    const res = await post(`${f.url}/v1/chat/completions`, {});
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    const body: any = await res.json();
    expect(body.error).toMatchObject({ type: "requests", code: "rate_limit_exceeded", param: null });
    expect(body.error.message).toContain("Rate limit");
  });
});

describe("scripting", () => {
  test("records requests; a function script sees each request and its index", async () => {
    const fake = await serve((req, i) => ({ text: `${req.provider} #${i} ${req.body.model}` }));
    await post(`${fake.url}/v1/messages`, { model: "m1" });
    const second = await (await post(`${fake.url}/v1/chat/completions`, { model: "m2" })).text();
    expect(sseText(second)).toBe("openai #1 m2");
    expect(fake.requests.map((r) => [r.path, r.provider, r.body.model])).toEqual([
      ["/v1/messages", "anthropic", "m1"],
      ["/v1/chat/completions", "openai", "m2"],
    ]);
    expect(fake.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  test("an exhausted script answers 500 saying so", async () => {
    const f = await serve([{ text: "only one" }]);
    await post(`${f.url}/v1/messages`, {});
    const res = await post(`${f.url}/v1/messages`, {});
    expect(res.status).toBe(500);
    expect(((await res.json()) as any).error.message).toContain("script exhausted");
  });

  test("raw replays bytes verbatim", async () => {
    const f = await serve([{ raw: "event: ping\ndata: {}\n\n" }]);
    const res = await post(`${f.url}/v1/messages`, {});
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(await res.text()).toBe("event: ping\ndata: {}\n\n");
  });

  test("a hanging reply is released when the client aborts, and stop() does not wait for it", async () => {
    const f = await serve([{ hang: true }, { hang: true }]);
    const controller = new AbortController();
    const pending = post(`${f.url}/v1/messages`, {}, controller.signal);
    await f.waitForRequests(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    const second = post(`${f.url}/v1/messages`, {}).then(
      (res) => res.status,
      () => "closed",
    );
    await f.waitForRequests(2);
    await f.stop();
    // Released by stop(): the connection is closed under it, or the fake's 499 gets out first.
    expect(["closed", 499]).toContain(await second);
  });

  test("an unstreamed request is refused with a 400 saying so (Synapse always streams)", async () => {
    const f = await serve([{ text: "not for you" }, { text: "streamed" }]);
    const res = await post(`${f.url}/v1/messages`, { stream: false });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toContain('no "stream": true');
    // It used up no scripted reply.
    expect(sseText(await (await post(`${f.url}/v1/messages`, {})).text())).toBe("not for you");
  });

  test("waitForRequests resolves with the requests, or fails naming what did arrive", async () => {
    const f = await serve(() => ({ text: "ok" }));
    const waiting = f.waitForRequests(2);
    await (await post(`${f.url}/v1/messages`, { messages: [{ role: "user", content: "first one" }] })).text();
    await (await post(`${f.url}/v1/messages`, { messages: [{ role: "user", content: "second one" }] })).text();
    expect((await waiting).map((r) => r.body.messages[0].content)).toEqual(["first one", "second one"]);
    const failed = await f.waitForRequests(3, 50).then(
      () => "resolved",
      (e: Error) => e.message,
    );
    expect(failed).toContain("waited 50 ms for 3 request(s), 2 came");
    expect(failed).toContain('#1 /v1/messages (anthropic) last message: "second one"');
    const filtered = await f
      .waitForRequests(1, 50, (r) => r.provider === "openai")
      .then(
        () => "resolved",
        (e: Error) => e.message,
      );
    expect(filtered).toContain("of the kind asked for, 0 came");
  });

  test("an `after` gate holds the reply until the test opens it", async () => {
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const f = await serve([{ text: "gated", after: gate }, { text: "free" }]);
    const order: string[] = [];
    const first = post(`${f.url}/v1/messages`, {}).then(async (r) => order.push(sseText(await r.text())));
    await f.waitForRequests(1);
    await post(`${f.url}/v1/messages`, {}).then(async (r) => order.push(sseText(await r.text())));
    open();
    await first;
    expect(order).toEqual(["free", "gated"]);
  });

  test("waitForStreamed waits for body bytes; a stalled stream sends no more until the client leaves", async () => {
    const f = await serve([{ text: "one two three four five", stallAfter: 3 }]);
    const controller = new AbortController();
    const res = await post(`${f.url}/v1/messages`, {}, controller.signal);
    await f.waitForStreamed(0);
    await f.waitForStreamed(0, "event: ", 3);
    expect(f.requests[0]!.sentBytes).toBeGreaterThan(0);
    const reader = res.body!.getReader();
    let got = "";
    while (parseSse(got).length < 3) got += new TextDecoder().decode((await reader.read()).value);
    expect(parseSse(got).map((e) => e.event)).toEqual(["message_start", "content_block_start", "ping"]);
    const failed = await f.waitForStreamed(0, "text_delta", 1, 50).then(
      () => "resolved",
      (e: Error) => e.message,
    );
    expect(failed).toContain('for request #0 to stream "text_delta" 1 time(s); it sent');
    expect(failed).toContain("holding it 0 time(s)");
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
  });

  test("delays count toward serverTimeMs", async () => {
    const f = await serve([{ text: "a b c", delayMs: 30, chunkDelayMs: 5 }]);
    await (await post(`${f.url}/v1/messages`, { stream: true })).text();
    expect(f.serverTimeMs).toBeGreaterThanOrEqual(30);
  });
});

test("runs as a process with a looping script file, printing its URL", async () => {
  const dir = mkdtempSync(join(tmpdir(), "fake-llm-"));
  const file = join(dir, "script.json");
  writeFileSync(file, JSON.stringify({ loop: [{ text: "ping" }, { text: "pong" }] }));
  const proc = Bun.spawn([process.execPath, "tests/support/fake-llm.ts", "--script", file], {
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    const reader = proc.stdout.getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    const url = out.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push(sseText(await (await post(`${url}/v1/chat/completions`, {})).text()));
    expect(texts).toEqual(["ping", "pong", "ping"]);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
});
