// Token estimates: characters / CHARS_PER_TOKEN, images by their fixed cost, cached per message;
// and the model-windows table with its override.
import { describe, expect, test } from "bun:test";
import { DEFAULT_CONTEXT_WINDOW, contextWindowFor } from "../../src/context/model-windows.ts";
import {
  CHARS_PER_TOKEN,
  IMAGE_TOKENS,
  estimateMessageTokens,
  estimateTextTokens,
  estimateTokens,
} from "../../src/context/token-estimate.ts";
import type { ContentBlock, Message } from "../../src/protocol/message.ts";

const msg = (...content: ContentBlock[]): Message => ({ id: "m", role: "user", content, ts: 0 });

describe("estimateTextTokens", () => {
  const cases: Array<[string, number]> = [
    ["", 0],
    ["abc", 1],
    ["abcd", 1],
    ["abcde", 2],
    ["x".repeat(4000), 1000],
  ];
  for (const [text, tokens] of cases)
    test(`${text.length} chars → ${tokens}`, () => expect(estimateTextTokens(text)).toBe(tokens));
});

describe("estimateMessageTokens", () => {
  test("grows with the text, a tool result counts its output", () => {
    const small = estimateMessageTokens(msg({ type: "text", text: "hi" }));
    const big = estimateMessageTokens(msg({ type: "tool_result", tool_use_id: "t", content: "x".repeat(20_000) }));
    expect(small).toBeLessThan(20);
    expect(big).toBeGreaterThanOrEqual(20_000 / CHARS_PER_TOKEN);
    expect(big).toBeLessThan(20_000 / CHARS_PER_TOKEN + 30);
  });
  test("an image counts IMAGE_TOKENS, at top level or inside a tool result", () => {
    const image = { type: "image", image: { sha256: "s", mediaType: "image/png", bytes: 10 } } as const;
    expect(estimateMessageTokens(msg(image))).toBeGreaterThanOrEqual(IMAGE_TOKENS);
    expect(
      estimateMessageTokens(msg({ type: "tool_result", tool_use_id: "t", content: [image] })),
    ).toBeGreaterThanOrEqual(IMAGE_TOKENS);
  });
  test("estimateTokens sums", () => {
    const a = msg({ type: "text", text: "a".repeat(400) });
    const b = msg({ type: "text", text: "b".repeat(800) });
    expect(estimateTokens([a, b])).toBe(estimateMessageTokens(a) + estimateMessageTokens(b));
  });
});

describe("contextWindowFor", () => {
  const cases: Array<[string, number | undefined, number]> = [
    ["claude-sonnet-4-5", undefined, 200_000],
    ["anthropic/claude-opus-4-1", undefined, 200_000],
    ["gpt-5.4", undefined, 272_000],
    ["gpt-4.1-mini", undefined, 1_047_576],
    ["gpt-4o", undefined, 128_000],
    ["llama3:70b", undefined, DEFAULT_CONTEXT_WINDOW],
    ["claude-sonnet-4-5", 50_000, 50_000],
  ];
  for (const [model, override, window] of cases) {
    test(`${model}${override ? ` (override ${override})` : ""} → ${window}`, () =>
      expect(contextWindowFor(model, override)).toBe(window));
  }
});
