// How each writer reports a condense of the context: one stderr line in text and json output, a
// system/compact_boundary line in stream-json.

import { describe, expect, test } from "bun:test";
import { createJsonWriter } from "../../../src/cli/output/json-writer.ts";
import { compactNotice } from "../../../src/cli/output/notices.ts";
import { createStreamJsonWriter } from "../../../src/cli/output/stream-json-writer.ts";
import { createTextWriter } from "../../../src/cli/output/text-writer.ts";
import type { AgentEvent } from "../../../src/protocol/events.ts";
import { PLAIN } from "../../../src/render/colors.ts";

type Boundary = Extract<AgentEvent, { type: "compact_boundary" }>;
const event = (over: Partial<Boundary> = {}): Boundary => ({
  type: "compact_boundary",
  trigger: "auto",
  method: "summary",
  tokens_before: 172_400,
  tokens_after: 21_300,
  messages_replaced: 80,
  ...over,
});

function streams() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    s: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), outIsTTY: false, errIsTTY: false },
  };
}

describe("compactNotice", () => {
  const cases: Array<[Partial<Boundary>, string]> = [
    [{}, "context 172k → 21k tokens (summarised)"],
    [
      { method: "prune", tokens_before: 160_000, tokens_after: 52_000 },
      "context 160k → 52k tokens (old tool outputs cleared)",
    ],
    [
      { method: "window", trigger: "reactive", tokens_before: 9_400, tokens_after: 800 },
      "context 9.4k → 800 tokens (older messages left out, after the API said the prompt was too long)",
    ],
    [{ trigger: "manual" }, "context 172k → 21k tokens (summarised, on request)"],
  ];
  for (const [over, line] of cases) test(line, () => expect(compactNotice(event(over))).toBe(line));
});

describe("writers", () => {
  test("text: one line on stderr, nothing on stdout; none with -q", () => {
    const { out, err, s } = streams();
    createTextWriter(s, { quiet: false, colors: PLAIN, labelLimit: 80, columns: () => 80 }).handle(event());
    expect(err.join("")).toBe("context 172k → 21k tokens (summarised)\n");
    expect(out).toEqual([]);
    const quiet = streams();
    createTextWriter(quiet.s, { quiet: true, colors: PLAIN, labelLimit: 80, columns: () => 80 }).handle(event());
    expect(quiet.err).toEqual([]);
  });

  test("json: the line on stderr", () => {
    const { out, err, s } = streams();
    createJsonWriter(s, { quiet: false }).handle(event());
    expect(err.join("")).toBe("context 172k → 21k tokens (summarised)\n");
    expect(out).toEqual([]);
  });

  test("stream-json: a system/compact_boundary line with Claude Code's compact_metadata", () => {
    const { out, s } = streams();
    const w = createStreamJsonWriter(s);
    w.handle({ type: "init", session_id: "S1", model: "m", provider: "anthropic", cwd: "/", tools: [] });
    w.handle(event({ trigger: "manual" }));
    expect(JSON.parse(out[1]!)).toEqual({
      type: "system",
      subtype: "compact_boundary",
      trigger: "manual",
      method: "summary",
      tokens_before: 172_400,
      tokens_after: 21_300,
      messages_replaced: 80,
      compact_metadata: { trigger: "manual", pre_tokens: 172_400 },
      session_id: "S1",
      // Every stream-json line has one, as Claude Code's do.
      uuid: expect.any(String),
    });
  });
});
