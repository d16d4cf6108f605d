// The replay of a resumed session after a compaction: the prompt of a kept turn whose prompt the
// record replaced (what it keeps begins with the answer) comes from the record.

import { describe, expect, test } from "bun:test";
import { keptTurnPrompt } from "../../../src/cli/interactive/session-replay.ts";
import type { CompactionInfo, Message } from "../../../src/protocol/message.ts";

const record = (over: Partial<CompactionInfo>): CompactionInfo => ({
  trigger: "manual",
  firstId: "a",
  lastId: "b",
  count: 4,
  tokensBefore: 10,
  tokensAfter: 5,
  keptIds: [],
  ...over,
});
const msg = (role: "user" | "assistant"): Message => ({ id: "m", role, content: [{ type: "text", text: "x" }], ts: 0 });

describe("keptTurnPrompt", () => {
  const TABLE: [string, CompactionInfo, Message | undefined, string | undefined][] = [
    [
      "kept answer: the newest quoted message",
      record({ userMessages: ["old", "new"], task: "t" }),
      msg("assistant"),
      "new",
    ],
    ["kept answer, no later prompt: the first prompt", record({ userMessages: [], task: "t" }), msg("assistant"), "t"],
    ["kept turn starts with its prompt: nothing", record({ userMessages: ["new"] }), msg("user"), undefined],
    ["nothing kept: nothing", record({ userMessages: ["new"] }), undefined, undefined],
    ["no text at all: nothing", record({ task: "" }), msg("assistant"), undefined],
  ];
  test.each(TABLE)("%s", (_, info, next, want) => {
    expect(keptTurnPrompt(info, next)).toBe(want);
  });
});
