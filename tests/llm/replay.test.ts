// Replays every recorded SSE transcript in ../shared/peer-vectors/sse/ through the real providers
// and checks the turn each one yields. A new transcript without an expectation fails the suite.

import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AssistantTurn } from "../../src/llm/types.ts";
import { ProviderError } from "../../src/protocol/errors.ts";
import { startFakeLLM, type FakeLLM } from "../support/fake-llm.ts";
import { havePeerVectors, peerVectorPath, skipForMissingVectors } from "../support/peer-vectors.ts";
import { providerFor, request, streamCollect, type ProviderKind } from "./request.ts";

const VECTORS = peerVectorPath("sse");
const present = havePeerVectors("sse");

let fake: FakeLLM | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

type Expectation = { turn: AssistantTurn } | { error: { retryable: boolean; message: string } };

const EXPECTED: Record<string, Expectation> = {
  "anthropic-text.sse": {
    turn: {
      content: [{ type: "text", text: "Hello!" }],
      stopReason: "end_turn",
      usage: { input_tokens: 25, output_tokens: 15 },
    },
  },
  "anthropic-tool-use.sse": {
    turn: {
      content: [
        { type: "text", text: "Okay, let's check the weather for San Francisco, CA:" },
        // The transcript's fragments join to {"location": "San Francisco, CA"}: there is no unit.
        {
          type: "tool_use",
          id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
          name: "get_weather",
          input: { location: "San Francisco, CA" },
        },
      ],
      stopReason: "tool_use",
      usage: { input_tokens: 472, output_tokens: 89 },
    },
  },
  "anthropic-error.sse": { error: { retryable: true, message: "overloaded_error: Overloaded" } },
  "openai-text.sse": {
    turn: {
      content: [
        {
          type: "text",
          text: "I'm unable to provide real-time updates, including current weather information. For the latest weather in San Francisco, I recommend checking a reliable weather website or app such as the Weather Channel, BBC Weather, or a local San Francisco news station.",
        },
      ],
      stopReason: "end_turn",
      usage: { input_tokens: 14, output_tokens: 47 },
    },
  },
  "openai-tool-calls.sse": {
    turn: {
      content: [
        {
          type: "tool_use",
          id: "call_pVHYsU0gmSfX5TqxOyVbB2ma",
          name: "get_weather",
          input: { city: "San Francisco", state: "CA" },
        },
      ],
      stopReason: "tool_use",
      usage: { input_tokens: 48, output_tokens: 19 },
    },
  },
};

const files = present
  ? readdirSync(VECTORS)
      .filter((f) => f.endsWith(".sse"))
      .sort()
  : [];
if (!present) for (const file of Object.keys(EXPECTED)) skipForMissingVectors(`replays ${file}`, "sse");

test.skipIf(!present)("every transcript has an expectation", () => {
  expect(files.length).toBeGreaterThan(0);
  expect(files).toEqual(Object.keys(EXPECTED).sort());
});

for (const file of files) {
  test(`replays ${file}`, async () => {
    const raw = readFileSync(join(VECTORS, file), "utf8");
    const kind: ProviderKind = file.startsWith("anthropic") ? "anthropic" : "openai";
    fake = await startFakeLLM([{ raw }]);
    const expected = EXPECTED[file];
    const pieces: string[] = [];
    const run = providerFor(kind, fake).stream(request(), { onText: (t) => pieces.push(t) });
    if ("error" in expected!) {
      const err = await run.then(
        () => undefined,
        (e) => e,
      );
      expect(err).toBeInstanceOf(ProviderError);
      expect(err.retryable).toBe(expected.error.retryable);
      expect(err.message).toContain(expected.error.message);
      return;
    }
    const turn = await run;
    expect(turn).toEqual(expected!.turn);
    const text = expected!.turn.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(pieces.join("")).toBe(text);
  });
}

for (const file of ["anthropic-tool-use.sse", "openai-tool-calls.sse"]) {
  test.skipIf(!present)(`${file} parses the same when it arrives in 13-byte pieces`, async () => {
    // Pieces split events, lines and JSON across reads, as a slow network does.
    const raw = readFileSync(join(VECTORS, file), "utf8");
    const kind: ProviderKind = file.startsWith("anthropic") ? "anthropic" : "openai";
    fake = await startFakeLLM([{ raw, chunkSize: 13, chunkDelayMs: 1 }]);
    const { turn } = await streamCollect(providerFor(kind, fake));
    expect(turn).toEqual((EXPECTED[file] as { turn: AssistantTurn }).turn);
  });
}
