// The messages between the main thread and a sub-agent's worker, parsed on arrival (table): a
// malformed one is refused with a sentence naming what is wrong, which ends that task.
import { describe, expect, test } from "bun:test";
import { readFromWorker, readSubAgentOutput, readToWorker } from "../../src/agent/sub-agent-protocol.ts";

const message = { id: "m1", role: "assistant", ts: 1, content: [{ type: "text", text: "hi" }] };
const outcome = { output: "x", exitCode: 0, timedOut: false, interrupted: false, finalCwd: "/w", durationMs: 3 };

describe("readFromWorker", () => {
  const ok: unknown[] = [
    { t: "started" },
    { t: "heap", bytes: 1024 },
    { t: "event", event: { type: "assistant", message } },
    { t: "event", event: { type: "warning", message: "careful" } },
    { t: "event", event: { type: "result", anything: true } },
    { t: "shell", id: 3, request: { command: "ls", cwd: "/w", timeoutMs: 1000 } },
    { t: "shell-abort", id: 3 },
  ];
  test.each(ok)("accepts %j", (m) => expect(readFromWorker(m)).toEqual(m as never));

  const bad: Array<[unknown, string]> = [
    [null, "a message from the worker"],
    [{ t: "launch-missiles" }, 'a message from the worker "launch-missiles"'],
    [{ t: "shell", id: 1, request: { command: 7, cwd: "/w", timeoutMs: 1 } }, '"request.command" must be a string'],
    [{ t: "shell", id: -1, request: { command: "ls", cwd: "/w", timeoutMs: 1 } }, '"id" must be at least 0'],
    [
      {
        t: "event",
        event: { type: "assistant", message: { id: "m", role: "assistant", ts: 1, content: [{ type: "text" }] } },
      },
      "wrong fields",
    ],
    [{ t: "event", event: { type: "warning", message: 5 } }, "wrong fields"],
    [{ t: "event", event: "text" }, '"event" must be an object'],
  ];
  test.each(bad)("refuses %j", (m, why) => expect(() => readFromWorker(m)).toThrow(why));
});

describe("readToWorker", () => {
  test("accepts what the main thread sends", () => {
    for (const m of [
      { t: "abort" },
      { t: "shell-done", id: 0, outcome },
      { t: "shell-error", id: 1, message: "gone" },
    ]) {
      expect(readToWorker(m)).toEqual(m as never);
    }
  });
  test("refuses an outcome without its status", () => {
    expect(() => readToWorker({ t: "shell-done", id: 0, outcome: { ...outcome, timedOut: undefined } })).toThrow(
      '"outcome.timedOut" is required',
    );
  });
});

describe("readSubAgentOutput", () => {
  const good = {
    subtype: "success",
    result: "done",
    numTurns: 2,
    usage: { input_tokens: 1, output_tokens: 2 },
    toolCalls: 0,
  };
  test("accepts a result", () => expect(readSubAgentOutput(good)).toEqual(good as never));
  test("refuses an unknown subtype or a missing result", () => {
    expect(() => readSubAgentOutput({ ...good, subtype: "won" })).toThrow('"subtype" must be one of');
    expect(() => readSubAgentOutput({ ...good, result: undefined })).toThrow('"result" is required');
  });
});
