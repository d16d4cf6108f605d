// streamWithRetry with both real providers against the fake server: what is retried, how long it
// waits, when it gives up, and that an interrupt ends a backoff at once.

import { afterEach, describe, expect, test } from "bun:test";
import { streamWithRetry, type RetryInfo, type RetryOptions } from "../../src/llm/retry.ts";
import { InterruptedError, ProviderError } from "../../src/protocol/errors.ts";
import { startFakeLLM, type FakeLLM, type ScriptedReply } from "../support/fake-llm.ts";
import { failure } from "../support/failure.ts";
import { providerFor, request, type ProviderKind } from "./request.ts";

let fake: FakeLLM | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

describe.each(["anthropic", "openai"] as ProviderKind[])("%s with retries", (kind) => {
  const retries: RetryInfo[] = [];
  const texts: string[] = [];
  /** The fake of the latest run(), once started. */
  let started = Promise.withResolvers<FakeLLM>();

  async function run(script: ScriptedReply[], options: Partial<RetryOptions> = {}, signal?: AbortSignal) {
    retries.length = 0;
    texts.length = 0;
    started = Promise.withResolvers<FakeLLM>();
    fake = await startFakeLLM(script);
    started.resolve(fake);
    const opts: RetryOptions = {
      maxRetries: 4,
      baseMs: 5,
      maxMs: 5_000,
      onRetry: (info) => retries.push(info),
      ...options,
    };
    const req = request(signal ? { signal } : {});
    return streamWithRetry(providerFor(kind, fake), req, { onText: (t) => texts.push(t) }, opts);
  }

  test("429 then success", async () => {
    const turn = await run([{ status: 429 }, { text: "done" }]);
    expect(turn.content).toEqual([{ type: "text", text: "done" }]);
    expect(fake!.requests.length).toBe(2);
    expect(retries.length).toBe(1);
    expect(retries[0]!.attempt).toBe(1);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(5);
    expect(retries[0]!.reason).toStartWith("429 ");
  });

  test("529 with retry-after in seconds is honoured", async () => {
    // Fractional seconds keep the real wait short; whole seconds are parsed the same way (retry-delay.test.ts).
    await run([{ status: 529, headers: { "retry-after": "0.15" } }, { text: "done" }]);
    const [first, second] = fake!.requests;
    expect(retries[0]!.delayMs).toBe(150);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(150);
  });

  test("retry-after-ms wins over the coarser retry-after the same response carries", async () => {
    await run([{ status: 529, headers: { "retry-after": "1", "retry-after-ms": "80" } }, { text: "done" }]);
    expect(retries[0]!.delayMs).toBe(80);
    const [first, second] = fake!.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(80);
  });

  test("retry-after-ms is honoured", async () => {
    await run([{ status: 503, headers: { "retry-after-ms": "120" } }, { text: "done" }]);
    expect(retries[0]!.delayMs).toBe(120);
    const [first, second] = fake!.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(120);
  });

  test("401 is not retried and keeps the API's message", async () => {
    const err = await failure(run([{ status: 401 }, { text: "never" }]));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.status).toBe(401);
    expect(err.message).toContain(kind === "anthropic" ? "invalid x-api-key" : "Incorrect API key provided");
    expect(fake!.requests.length).toBe(1);
    expect(retries.length).toBe(0);
  });

  test("400, 403 and 404 are not retried", async () => {
    for (const status of [400, 403, 404]) {
      const err = await failure(run([{ status }, { text: "never" }]));
      expect(err.status).toBe(status);
      expect(fake!.requests.length).toBe(1);
      await fake!.stop();
      fake = undefined;
    }
  });

  test("a cut stream is retried; onRetry marks the partial text to discard", async () => {
    const turn = await run([{ cut: true, text: "partial words that never finish here" }, { text: "complete" }]);
    expect(turn.content).toEqual([{ type: "text", text: "complete" }]);
    expect(retries.length).toBe(1);
    expect(texts.join("")).toStartWith("partial");
    expect(texts.join("")).toEndWith("complete");
  });

  test("a mid-stream overload is retried", async () => {
    const turn = await run([{ streamError: { type: "overloaded_error", message: "Overloaded" } }, { text: "ok" }]);
    expect(turn.content).toEqual([{ type: "text", text: "ok" }]);
    expect(retries[0]!.reason).toContain("overloaded_error");
  });

  test("retries run out: the last ProviderError, saying so", async () => {
    const err = await failure(
      run([{ status: 503 }, { status: 500 }, { status: 502 }, { text: "too late" }], { maxRetries: 2 }),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.status).toBe(502);
    expect(err.message).toContain("gave up after 2 retries");
    expect(fake!.requests.length).toBe(3);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
  });

  test("maxRetries 0 fails on the first error", async () => {
    const err = await failure(run([{ status: 429 }], { maxRetries: 0 }));
    expect(err.status).toBe(429);
    expect(fake!.requests.length).toBe(1);
  });

  test("a retry-after beyond maxMs gives up at once", async () => {
    // Waiting instead would outlast the test's timeout.
    const err = await failure(run([{ status: 429, headers: { "retry-after": "3600" } }], { maxMs: 2_000 }));
    expect(err.status).toBe(429);
    expect(err.message).toContain("3600 s");
    expect(retries).toEqual([]);
    expect(fake!.requests.length).toBe(1);
  });

  test("abort during backoff ends the wait at once with InterruptedError", async () => {
    const controller = new AbortController();
    const waiting = Promise.withResolvers<void>();
    // The hour-long retry-after outlasts the test's timeout: only the abort can end this wait in time.
    const onRetry = (info: RetryInfo) => (retries.push(info), waiting.resolve());
    const pending = run(
      [{ status: 529, headers: { "retry-after": "3600" } }, { text: "never" }],
      { maxMs: 7_200_000, onRetry },
      controller.signal,
    );
    await waiting.promise;
    expect(retries[0]!.delayMs).toBe(3_600_000);
    controller.abort();
    expect(await failure(pending)).toBeInstanceOf(InterruptedError);
    expect(fake!.requests.length).toBe(1);
  });

  test("abort while the server hangs is not retried", async () => {
    const controller = new AbortController();
    const pending = run([{ hang: true }, { text: "never" }], {}, controller.signal);
    await (await started.promise).waitForRequests(1);
    controller.abort();
    expect(await failure(pending)).toBeInstanceOf(InterruptedError);
    expect(retries.length).toBe(0);
  });
});
