// Both providers, through their real SDKs over HTTP to the fake server: streaming, tool calls,
// usage, broken tool JSON, error mapping, cut streams and interrupts.

import { describe, expect, test } from "bun:test";
import { InterruptedError, ProviderError } from "../../src/protocol/errors.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { failure } from "../support/failure.ts";
import { providerFor, request, streamCollect, type ProviderKind } from "./request.ts";

const serve = fakeLLMPerTest();

describe.each(["anthropic", "openai"] as ProviderKind[])("%s provider", (kind) => {
  test("streams text in pieces and reports usage", async () => {
    const f = await serve([
      { text: "The quick brown fox jumps over the lazy dog.", usage: { input_tokens: 42, output_tokens: 9 } },
    ]);
    const { turn, pieces } = await streamCollect(providerFor(kind, f));
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe("The quick brown fox jumps over the lazy dog.");
    expect(turn).toEqual({
      content: [{ type: "text", text: "The quick brown fox jumps over the lazy dog." }],
      stopReason: "end_turn",
      usage: { input_tokens: 42, output_tokens: 9 },
    });
    expect(f.requests[0]!.body.stream).toBe(true);
    expect(f.requests[0]!.body.model).toBe(kind === "anthropic" ? "claude-test" : "gpt-test");
  });

  test("assembles several tool calls from fragmented arguments", async () => {
    const edit = { path: "src/a.ts", old_string: 'const a = "x";\n', new_string: "const a = 1;", replace_all: false };
    const f = await serve([
      {
        text: "Let me look.",
        toolCalls: [
          { id: "call_1", name: "Read", input: { path: "README.md", offset: 10 } },
          { id: "call_2", name: "Edit", input: edit },
        ],
      },
    ]);
    const { turn } = await streamCollect(providerFor(kind, f));
    expect(turn.stopReason).toBe("tool_use");
    expect(turn.content).toEqual([
      { type: "text", text: "Let me look." },
      { type: "tool_use", id: "call_1", name: "Read", input: { path: "README.md", offset: 10 } },
      { type: "tool_use", id: "call_2", name: "Edit", input: edit },
    ]);
  });

  test("broken tool JSON becomes data, not a throw; empty arguments become {}", async () => {
    const f = await serve([
      {
        toolCalls: [
          { id: "t1", name: "Bash", input: null, rawArguments: '{"command": "ls -la' },
          { id: "t2", name: "Glob", input: null, rawArguments: "" },
        ],
      },
    ]);
    const { turn } = await streamCollect(providerFor(kind, f));
    expect(turn.content).toEqual([
      { type: "tool_use", id: "t1", name: "Bash", input: {}, raw_input: '{"command": "ls -la' },
      { type: "tool_use", id: "t2", name: "Glob", input: {} },
    ]);
  });

  test("sends the key, and the SDK makes no retries of its own", async () => {
    const f = await serve([{ status: 500 }]);
    const err = await failure(streamCollect(providerFor(kind, f)));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.status).toBe(500);
    expect(err.retryable).toBe(true);
    expect(f.requests.length).toBe(1);
    const headers = f.requests[0]!.headers;
    // Anthropic SDK 1.x sends the API key as a Bearer token, not as x-api-key.
    const key = headers["x-api-key"] ?? headers.authorization?.replace(/^Bearer /, "");
    expect(key).toBe(kind === "anthropic" ? "sk-ant-test" : "sk-test");
  });

  test("401 is not retryable and carries the API's own message", async () => {
    const f = await serve([{ status: 401 }]);
    const err = await failure(streamCollect(providerFor(kind, f)));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.status).toBe(401);
    expect(err.retryable).toBe(false);
    if (kind === "anthropic") expect(err.message).toBe("401 authentication_error: invalid x-api-key");
    else expect(err.message).toStartWith("401 invalid_api_key: Incorrect API key provided");
  });

  test("a scripted error body and a non-JSON body both surface their text", async () => {
    const body =
      kind === "anthropic"
        ? {
            type: "error",
            error: { type: "invalid_request_error", message: "max_tokens: too large" },
            request_id: "req_1",
          }
        : {
            error: {
              message: "max_tokens is too large",
              type: "invalid_request_error",
              param: "max_tokens",
              code: null,
            },
          };
    const f = await serve([
      { status: 400, body },
      { status: 502, body: "<html>Bad Gateway</html>", headers: { "content-type": "text/html" } },
    ]);
    const provider = providerFor(kind, f);
    const bad = await failure(streamCollect(provider));
    expect(bad.message).toBe(
      kind === "anthropic"
        ? "400 invalid_request_error: max_tokens: too large"
        : "400 invalid_request_error: max_tokens is too large",
    );
    expect(bad.retryable).toBe(false);
    const gateway = await failure(streamCollect(provider));
    expect(gateway.status).toBe(502);
    expect(gateway.retryable).toBe(true);
    expect(gateway.message).toContain("Bad Gateway");
  });

  test("a mid-stream overload is a retryable ProviderError", async () => {
    const f = await serve([{ streamError: { type: "overloaded_error", message: "Overloaded" }, text: "I will now" }]);
    const err = await failure(streamCollect(providerFor(kind, f)));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.retryable).toBe(true);
    expect(err.message).toContain("overloaded_error: Overloaded");
  });

  test("a mid-stream invalid_request_error is not retryable", async () => {
    const f = await serve([{ streamError: { type: "invalid_request_error", message: "bad" } }]);
    const err = await failure(streamCollect(providerFor(kind, f)));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.retryable).toBe(false);
  });

  test("a cut stream is retryable, after partial text reached onText", async () => {
    const f = await serve([{ cut: true, text: "This answer will never be finished by the server" }]);
    const pieces: string[] = [];
    const err = await failure(providerFor(kind, f).stream(request(), { onText: (t) => pieces.push(t) }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.retryable).toBe(true);
    expect(pieces.join("")).toStartWith("This answer");
  });

  test("a stream that ends cleanly but early counts as cut", async () => {
    const early =
      kind === "anthropic"
        ? 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1,"output_tokens":1}}}\n\n'
        : 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}\n\n';
    const f = await serve([{ raw: early }]);
    const err = await failure(streamCollect(providerFor(kind, f)));
    expect(err.retryable).toBe(true);
    expect(err.message).toContain("ended before");
  });

  test("a 200 that is no event stream at all is not retried, and hints at the base URL", async () => {
    const f = await serve([{ raw: "<html><body>Welcome to nginx!</body></html>", contentType: "text/html" }]);
    const err = await failure(streamCollect(providerFor(kind, f)));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("base URL");
  });

  test("connection refused is a retryable ProviderError", async () => {
    const f = await serve([]);
    const provider = providerFor(kind, f);
    await f.stop();
    const err = await failure(streamCollect(provider));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.retryable).toBe(true);
  });

  test("abort while waiting for the server throws InterruptedError at once", async () => {
    const f = await serve([{ hang: true }]);
    const controller = new AbortController();
    const pending = streamCollect(providerFor(kind, f), request({ signal: controller.signal }));
    await f.waitForRequests(1);
    controller.abort();
    // The reply never comes: only the abort can end this before the test's timeout.
    expect(await failure(pending)).toBeInstanceOf(InterruptedError);
  });

  test("abort mid-stream throws InterruptedError, not a partial turn", async () => {
    const f = await serve([{ text: "one two three four five six seven eight nine ten", chunkDelayMs: 20 }]);
    const controller = new AbortController();
    const pieces: string[] = [];
    const pending = providerFor(kind, f).stream(request({ signal: controller.signal }), {
      onText: (t) => {
        pieces.push(t);
        if (pieces.length === 2) controller.abort();
      },
    });
    expect(await failure(pending)).toBeInstanceOf(InterruptedError);
    expect(pieces.length).toBeLessThan(10);
  });

  test("an already-aborted signal never sends a request", async () => {
    const f = await serve([{ text: "unused" }]);
    const controller = new AbortController();
    controller.abort();
    expect(await failure(streamCollect(providerFor(kind, f), request({ signal: controller.signal })))).toBeInstanceOf(
      InterruptedError,
    );
    expect(f.requests.length).toBe(0);
  });
});
