// The stream-json writer's lines as a Claude Agent SDK program reads them: a uuid on each, init's
// permission mode, the result's permission_denials and errors, and stream_event lines.

import { describe, expect, test } from "bun:test";
import { createStreamJsonWriter } from "../../../src/cli/output/stream-json-writer.ts";
import type { AgentEvent, RunResult } from "../../../src/protocol/events.ts";

function capture(opts: Parameters<typeof createStreamJsonWriter>[1] = {}) {
  const out: string[] = [];
  const writer = createStreamJsonWriter(
    { out: (t) => out.push(t), err: () => {}, outIsTTY: false, errIsTTY: false },
    opts,
  );
  return { lines: () => out.map((l) => JSON.parse(l)), handle: (e: AgentEvent) => writer.handle(e) };
}

const init: AgentEvent = {
  type: "init",
  session_id: "S",
  model: "m",
  provider: "anthropic",
  cwd: "/w",
  tools: ["Bash"],
};
const result = (over: Partial<RunResult> = {}): AgentEvent => ({
  type: "result",
  result: {
    subtype: "success",
    is_error: false,
    result: "ok",
    session_id: "S",
    num_turns: 1,
    duration_ms: 5,
    duration_api_ms: 0,
    modelUsage: {},
    usage: { input_tokens: 1, output_tokens: 1 },
    stats: {} as RunResult["stats"],
    ...over,
  },
});
const assistant = (text: string): AgentEvent => ({
  type: "assistant",
  message: { id: "a1", ts: 0, role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn" },
});

describe("stream-json for the Agent SDK", () => {
  test("every line has its own uuid; init says the permission mode and the version given", () => {
    const w = capture({ permissionMode: () => "acceptEdits", version: "synapse 1 (protocol)" });
    w.handle(init);
    w.handle(result());
    const [first, last] = w.lines();
    expect(first).toMatchObject({
      subtype: "init",
      permissionMode: "acceptEdits",
      claude_code_version: "synapse 1 (protocol)",
      mcp_servers: [],
    });
    expect(first.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(last.uuid).not.toBe(first.uuid);
  });

  test("a result lists the turn's refused calls with their input, and a failure's errors", () => {
    const w = capture();
    w.handle(init);
    w.handle({ type: "tool_start", id: "t1", name: "Write", input: { path: "/x" } });
    w.handle({ type: "permission_denied", id: "t1", name: "Write", reason: "outside" });
    w.handle(result({ subtype: "error_during_execution", is_error: true, result: "it broke" }));
    const last = w.lines().at(-1);
    expect(last.permission_denials).toEqual([
      { tool_name: "Write", tool_use_id: "t1", tool_input: { path: "/x", file_path: "/x" } },
    ]);
    expect(last.errors).toEqual(["it broke"]);
    // The next turn starts with none.
    w.handle(init);
    w.handle(result());
    expect(w.lines().at(-1).permission_denials).toEqual([]);
    expect(w.lines().at(-1).errors).toBeUndefined();
  });

  const partialCases: [string, boolean, string[]][] = [
    ["without --include-partial-messages: no stream_event", false, ["system", "assistant"]],
    [
      "with it: the text subset of the stream events, then the assistant line",
      true,
      [
        "system",
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "assistant",
      ],
    ],
  ];
  for (const [name, partial, kinds] of partialCases)
    test(name, () => {
      const w = capture({ partial });
      w.handle(init);
      w.handle({ type: "text_delta", text: "he" });
      w.handle({ type: "text_delta", text: "llo" });
      w.handle(assistant("hello"));
      expect(w.lines().map((l) => (l.type === "stream_event" ? l.event.type : l.type))).toEqual(kinds);
    });

  test("a retried stream starts a new message", () => {
    const w = capture({ partial: true });
    w.handle(init);
    w.handle({ type: "text_delta", text: "cut" });
    w.handle({ type: "turn_retry", attempt: 1, delay_ms: 10, reason: "reset" });
    w.handle({ type: "text_delta", text: "again" });
    const starts = w.lines().filter((l) => l.type === "stream_event" && l.event.type === "message_start");
    expect(starts).toHaveLength(2);
  });
});
