// The pure parts of `synapse acp`: tool kinds, titles and locations; executor events → session
// updates (diffs, live output, results); stop reasons; permission options and answers; prompts;
// modes; the replay of a stored session.

import { describe, expect, test } from "bun:test";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import {
  LIVE_INTERVAL_MS,
  LIVE_LINES,
  type LiveClock,
  createUpdateMapper,
  diffContent,
  liveTail,
} from "../../src/acp/event-updates.ts";
import { modeState, permissionModeOf } from "../../src/acp/modes.ts";
import { answerFor, permissionOptions } from "../../src/acp/permission-bridge.ts";
import { promptText } from "../../src/acp/prompt-content.ts";
import { replayUpdates } from "../../src/acp/replay.ts";
import { turnEnd } from "../../src/acp/stop-reason.ts";
import { toolKind, toolLocations, toolTitle } from "../../src/acp/tool-kind.ts";
import type { SubmissionOutcome } from "../../src/executor/executor.ts";
import type { RunResult } from "../../src/protocol/events.ts";
import { changeDisplay } from "../../src/tools/line-diff.ts";

describe("tool kind, title and locations", () => {
  test.each([
    ["Read", { path: "a.ts" }, "read", "Read a.ts", [{ path: "/ws/a.ts" }]],
    ["Read", { path: "/abs/b.ts", offset: 40 }, "read", "Read /abs/b.ts", [{ path: "/abs/b.ts", line: 40 }]],
    [
      "Edit",
      { path: "src/x.ts", old_string: "a", new_string: "b" },
      "edit",
      "Edit src/x.ts",
      [{ path: "/ws/src/x.ts" }],
    ],
    ["Write", { path: "n.md", content: "" }, "edit", "Write n.md", [{ path: "/ws/n.md" }]],
    ["Bash", { command: "npm test" }, "execute", "npm test", []],
    ["Bash", { command: "echo a\necho b" }, "execute", "echo a …", []],
    ["Bash", { command: 'task:explore --prompt "find it"' }, "think", 'task:explore --prompt "find it"', []],
    ["Grep", { pattern: "TODO", path: "src" }, "search", 'Grep "TODO" in src', [{ path: "/ws/src" }]],
    ["Glob", { pattern: "**/*.ts" }, "search", 'Glob "**/*.ts"', []],
    ["mcp__github__issue", { id: 3 }, "other", "mcp__github__issue", []],
  ] as const)("%s %j → %s", (name, input, kind, title, locations) => {
    expect(toolKind(name, input)).toBe(kind);
    expect(toolTitle(name, input)).toBe(title);
    expect(toolLocations(name, input, "/ws")).toEqual(locations as any);
  });

  test("a long command's title is cut to one line", () => {
    const title = toolTitle("Bash", { command: "x".repeat(500) });
    expect(title.length).toBeLessThanOrEqual(160);
    expect(title.endsWith("…")).toBe(true);
  });
});

describe("events → session updates", () => {
  test("an edit's diff becomes old and new text per hunk; a new file has no old text", () => {
    const edited = changeDisplay(
      "/ws/a.txt",
      "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
      "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n10\n",
      false,
    )!;
    const [d] = diffContent(edited as any) as any[];
    expect(d.path).toBe("/ws/a.txt");
    expect(d.oldText).toContain("5");
    expect(d.oldText).not.toContain("FIVE");
    expect(d.newText).toContain("FIVE");
    expect(d.newText.split("\n")).not.toContain("5");
    const created = changeDisplay("/ws/new.txt", "", "hello\nworld\n", true)!;
    expect(diffContent(created as any)).toEqual([
      { type: "diff", path: "/ws/new.txt", oldText: null, newText: expect.stringContaining("hello\nworld") },
    ]);
  });

  test("a tool call: started pending, live output, result; a diff is not replaced by the result text", () => {
    const m = createUpdateMapper("/ws");
    expect(m.map({ type: "tool_start", id: "t1", name: "Bash", input: { command: "ls" } })).toEqual([
      {
        sessionUpdate: "tool_call",
        toolCallId: "t1",
        title: "ls",
        kind: "execute",
        status: "pending",
        locations: [],
        rawInput: { command: "ls" },
      },
    ]);
    const live = m.map({ type: "tool_progress", id: "t1", name: "Bash", text: "a\n" });
    m.map({ type: "tool_progress", id: "t1", name: "Bash", text: "b\n" });
    expect(live[0]).toMatchObject({
      status: "in_progress",
      content: [{ type: "content", content: { type: "text", text: "a\n" } }],
    });
    expect(m.map({ type: "tool_progress", id: "t1", name: "Bash", text: "c\n" })[0]).toMatchObject({
      content: [{ content: { text: "a\nb\nc\n" } }],
    });
    expect(
      m.map({ type: "tool_end", id: "t1", name: "Bash", is_error: false, summary: "a … (3 lines)" })[0],
    ).toMatchObject({ status: "completed" });

    const diff = changeDisplay("/ws/f", "x\n", "y\n", false)!;
    m.map({ type: "tool_start", id: "t2", name: "Edit", input: { path: "f", old_string: "x", new_string: "y" } });
    expect(
      m.map({ type: "tool_end", id: "t2", name: "Edit", is_error: false, summary: "Edited", display: diff })[0],
    ).toMatchObject({ status: "completed", content: [{ type: "diff" }] });

    const results = m.map({
      type: "user",
      message: {
        id: "u",
        role: "user",
        ts: 0,
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "a\nb\nc\n" },
          { type: "tool_result", tool_use_id: "t2", content: "Edited f" },
        ],
      },
    });
    expect(results).toEqual([
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "t1",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "a\nb\nc\n" } }],
      },
    ]);
  });

  /** A clock the test moves by hand: held-back updates fire only when it says so. */
  function manualClock() {
    let t = 1000;
    const timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
    const clock: LiveClock = {
      now: () => t,
      later(fn, ms) {
        const timer = { at: t + ms, fn, live: true };
        timers.push(timer);
        return () => (timer.live = false);
      },
    };
    const advance = (ms: number) => {
      t += ms;
      for (const timer of timers.splice(0)) {
        if (timer.live && timer.at <= t) timer.fn();
        else if (timer.live) timers.push(timer);
      }
    };
    return { clock, advance, pending: () => timers.filter((x) => x.live).length };
  }
  const liveText = (u: unknown) => (u as { content: Array<{ content: { text: string } }> }).content[0]!.content.text;

  test("live output is throttled: the first chunk at once, the rest together when the interval is up", () => {
    const { clock, advance, pending } = manualClock();
    const late: unknown[] = [];
    const m = createUpdateMapper("/ws", { clock, late: (u) => late.push(u) });
    m.map({ type: "tool_start", id: "t", name: "Bash", input: { command: "make" } });
    expect(liveText(m.map({ type: "tool_progress", id: "t", name: "Bash", text: "a\n" })[0])).toBe("a\n");
    expect(m.map({ type: "tool_progress", id: "t", name: "Bash", text: "b\n" })).toEqual([]);
    expect(m.map({ type: "tool_progress", id: "t", name: "Bash", text: "c\n" })).toEqual([]);
    expect(late).toEqual([]);
    advance(LIVE_INTERVAL_MS);
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({ toolCallId: "t", status: "in_progress" });
    expect(liveText(late[0])).toBe("a\nb\nc\n");
    // Quiet for longer than the interval: the next chunk goes at once again.
    advance(LIVE_INTERVAL_MS);
    expect(liveText(m.map({ type: "tool_progress", id: "t", name: "Bash", text: "d\n" })[0])).toBe("a\nb\nc\nd\n");
    // Held back, then the call ends: the held update is dropped, never sent after "completed".
    m.map({ type: "tool_progress", id: "t", name: "Bash", text: "e\n" });
    expect(pending()).toBe(1);
    expect(m.map({ type: "tool_end", id: "t", name: "Bash", is_error: false, summary: "done" })[0]).toMatchObject({
      status: "completed",
    });
    expect(pending()).toBe(0);
    advance(LIVE_INTERVAL_MS * 5);
    expect(late).toHaveLength(1);
  });

  test("live output keeps only its last lines, marked as cut", () => {
    const many = `${Array.from({ length: LIVE_LINES + 50 }, (_, i) => `line ${i}`).join("\n")}\n`;
    const kept = liveTail(many);
    expect(kept.startsWith("…\nline 50\n")).toBe(true);
    expect(kept.endsWith(`line ${LIVE_LINES + 49}\n`)).toBe(true);
    expect(kept.split("\n")).toHaveLength(LIVE_LINES + 2);
    expect(liveTail("a\nb")).toBe("a\nb");
    // Cutting again keeps the bound: the marker line is not stacked.
    expect(liveTail(`${kept}one more\n`).split("\n")).toHaveLength(LIVE_LINES + 2);
    const m = createUpdateMapper("/ws");
    m.map({ type: "tool_start", id: "t", name: "Bash", input: { command: "seq" } });
    const [u] = m.map({ type: "tool_progress", id: "t", name: "Bash", text: many });
    expect(liveText(u)).toBe(kept);
  });

  test("the permission question finds its call by tool and input, else the newest call of that tool", () => {
    const m = createUpdateMapper("/ws");
    m.map({ type: "tool_start", id: "a", name: "Write", input: { path: "x", content: "1" } });
    m.map({ type: "tool_start", id: "b", name: "Write", input: { path: "y", content: "2" } });
    expect(m.findCall("Write", { path: "x", content: "1" })).toBe("a");
    expect(m.findCall("Write", { path: "z", content: "3" })).toBe("b");
    expect(m.findCall("Bash", { command: "ls" })).toBeUndefined();
  });

  test("text streams as message chunks; a sub-agent's results are not the main calls'", () => {
    const m = createUpdateMapper("/ws");
    expect(m.map({ type: "text_delta", text: "hi" })).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
    ]);
    m.map({ type: "tool_start", id: "t", name: "Read", input: { path: "a" } });
    const sub = m.map({
      type: "user",
      parent_tool_use_id: "p",
      message: { id: "u", role: "user", ts: 0, content: [{ type: "tool_result", tool_use_id: "t", content: "x" }] },
    });
    expect(sub).toEqual([]);
  });
});

describe("stop reasons", () => {
  const result = (over: Partial<RunResult>): RunResult => ({
    subtype: "success",
    is_error: false,
    result: "",
    session_id: "s",
    num_turns: 1,
    duration_ms: 1,
    duration_api_ms: 0,
    modelUsage: {},
    usage: { input_tokens: 0, output_tokens: 0 },
    stats: {} as RunResult["stats"],
    ...over,
  });
  const done = (over: Partial<SubmissionOutcome>): SubmissionOutcome => ({
    id: "s1",
    status: "done",
    exit: false,
    ...over,
  });
  test.each([
    ["success", done({ result: result({}) }), { stopReason: "end_turn" }],
    ["interrupted submission", done({ status: "interrupted" }), { stopReason: "cancelled" }],
    ["interrupted run", done({ result: result({ subtype: "interrupted" }) }), { stopReason: "cancelled" }],
    ["output limit", done({ result: result({ subtype: "error_max_tokens" }) }), { stopReason: "max_tokens" }],
    ["max turns", done({ result: result({ subtype: "error_max_turns" }) }), { stopReason: "max_turn_requests" }],
    ["refusal", done({ result: result({ stop_reason: "refusal" }) }), { stopReason: "refusal" }],
    ["slash command", done({}), { stopReason: "end_turn" }],
    ["failed command", done({ status: "failed", error: "unknown command /x" }), { error: "unknown command /x" }],
    [
      "failed run",
      done({ status: "failed", result: result({ subtype: "error_during_execution", result: "API down" }) }),
      { error: "API down" },
    ],
    [
      "not saved",
      done({ result: result({ error: "could not save the session: ENOSPC" }) }),
      { error: "could not save the session: ENOSPC" },
    ],
  ] as const)("%s", (_name, outcome, expected) => {
    expect(turnEnd(outcome as SubmissionOutcome)).toEqual(expected as any);
  });
});

describe("permission options and answers", () => {
  const request = { tool: "Bash", input: { command: "make" }, reason: "r", rule: "Bash(make)" };
  test("always is offered only for an exact rule", () => {
    expect(permissionOptions(request).map((o) => o.kind)).toEqual(["allow_once", "reject_once"]);
    expect(permissionOptions({ ...request, exact: true }).map((o) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
    ]);
  });
  test.each([
    [{ outcome: "selected", optionId: "allow_once" }, "yes"],
    [{ outcome: "selected", optionId: "allow_always" }, "always"],
    [{ outcome: "selected", optionId: "reject_once" }, { no: "" }],
    [{ outcome: "cancelled" }, { no: "the question was cancelled", stop: true }],
    [{ outcome: "selected", optionId: "made-up" }, { no: "" }],
  ] as const)("%j → %j", (outcome, answer) => {
    expect(answerFor(outcome as any, permissionOptions({ ...request, exact: true }))).toEqual(answer as any);
  });
  test("always is refused when it was not offered", () => {
    expect(answerFor({ outcome: "selected", optionId: "allow_always" }, permissionOptions(request))).toEqual({
      no: "",
    });
  });
});

describe("prompts, modes, replay", () => {
  test("embedded files become tagged context; links are named", () => {
    const blocks: ContentBlock[] = [
      { type: "text", text: "explain" },
      { type: "resource", resource: { uri: "file:///ws/a.ts", text: "const a = 1;" } },
      { type: "resource_link", uri: "file:///ws/b.ts", name: "b.ts" },
    ];
    expect(promptText(blocks)).toBe(
      'explain\n<context uri="file:///ws/a.ts">\nconst a = 1;\n</context>\n[b.ts](file:///ws/b.ts)',
    );
  });

  test("modes are the permission modes; an unknown one is refused", () => {
    expect(modeState("plan").currentModeId).toBe("plan");
    expect(modeState("default").availableModes.map((m) => m.id)).toEqual(["default", "accept-edits", "plan", "bypass"]);
    expect(permissionModeOf("accept-edits")).toBe("accept-edits");
    expect(() => permissionModeOf("yolo")).toThrow("unknown mode");
  });

  test("a stored conversation replays as user and agent chunks and finished tool calls", () => {
    const updates = replayUpdates(
      [
        { id: "1", role: "user", ts: 0, content: [{ type: "text", text: "read a" }] },
        {
          id: "2",
          role: "assistant",
          ts: 0,
          content: [
            { type: "text", text: "ok" },
            { type: "tool_use", id: "t", name: "Read", input: { path: "a" } },
          ],
        },
        {
          id: "3",
          role: "user",
          ts: 0,
          content: [{ type: "tool_result", tool_use_id: "t", content: "A", is_error: true }],
        },
      ],
      "/ws",
    );
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
    ]);
    expect(updates[2]).toMatchObject({ kind: "read", locations: [{ path: "/ws/a" }] });
    expect(updates[3]).toMatchObject({ status: "failed" });
  });
});
