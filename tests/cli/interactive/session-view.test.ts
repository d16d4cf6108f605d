// What the interactive session's view commits for the executor's events (pure: no terminal).

import { describe, expect, test } from "bun:test";
import { replayedCommand } from "../../../src/cli/interactive/session-replay.ts";
import { SessionView } from "../../../src/cli/interactive/session-view.ts";
import { makeTheme } from "../../../src/render/theme.ts";
import { stripAnsi } from "../../../src/render/text-width.ts";
import { lineDiff } from "../../../src/tools/line-diff.ts";

const view = () => new SessionView(makeTheme(false), () => 80, 80);

describe("SessionView", () => {
  test("a run stopped by --max-budget-usd says why, as the other error endings do", () => {
    const v = view();
    const result = {
      type: "result",
      subtype: "error_max_budget_usd",
      is_error: true,
      result: "stopped: the next request would pass the $0.01 budget",
      session_id: "s",
      num_turns: 1,
      duration_ms: 1,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    v.handle({ type: "result", result } as never);
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["error: stopped: the next request would pass the $0.01 budget"]);
  });

  test("a call the user refused in the approval prompt is not reported a second time as 'not allowed'", () => {
    const v = view();
    v.handle({ type: "permission_denied", id: "t1", name: "Write", reason: "the user said no" });
    expect(v.takeCommitted()).toEqual([]);
    // A refusal by the policy (no one was asked) is still shown.
    v.handle({ type: "permission_denied", id: "t2", name: "Bash", reason: "a sub-agent cannot ask" });
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["  ⎿ not allowed: a sub-agent cannot ask"]);
  });

  test("queued inputs taken back by an interrupt leave no echo or 'interrupted' line when they are skipped", () => {
    const v = view();
    v.handle({ type: "submission_start", id: "s1", text: "first" });
    v.queue("s2", "second");
    expect(v.liveRows(0, 10).map(stripAnsi)).toContain("  queued: second");
    expect(v.withdrawQueued()).toEqual([{ id: "s2", text: "second" }]);
    v.takeCommitted();
    v.handle({ type: "submission_end", outcome: { id: "s1", status: "interrupted", exit: false } });
    v.handle({ type: "submission_start", id: "s2", text: "second" });
    v.handle({ type: "submission_end", outcome: { id: "s2", status: "interrupted", exit: false } });
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["  ⎿ interrupted"]);
    expect(v.busy).toBe(false);
    expect(v.liveRows(0, 10)).toEqual([]);
  });

  test("a retry says how long it waits, as the headless notice does", () => {
    const v = view();
    v.handle({ type: "turn_retry", attempt: 2, delay_ms: 1500, reason: "500 api_error: boom\x1b[2J" });
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["⟳ retrying in 1.5s (attempt 2): 500 api_error: boom␛[2J"]);
  });

  test("/compact reports once: the condense line, or 'nothing to compact' when nothing was condensed", () => {
    const v = view();
    v.handle({ type: "submission_start", id: "s1", text: "/compact" });
    v.takeCommitted();
    v.handle({
      type: "compact_boundary",
      trigger: "manual",
      method: "summary",
      tokens_before: 172_000,
      tokens_after: 21_000,
      messages_replaced: 40,
    } as any);
    v.handle({ type: "compacted", id: "s1", tokens_before: 172_000, tokens_after: 21_000 });
    // A bare `/name`'s echo is held until its submission's next event (it may open a picker instead).
    expect(v.takeCommitted().map(stripAnsi)).toEqual([
      "",
      "› /compact",
      "  context condensed (summary): 172,000 → 21,000 tokens",
    ]);
    v.handle({ type: "submission_start", id: "s2", text: "/compact" });
    v.takeCommitted();
    v.handle({ type: "compacted", id: "s2", tokens_before: 3_000, tokens_after: 3_000 });
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["", "› /compact", "nothing to compact: 3k tokens"]);
  });

  test("a bare /name's echo is held: a picker takes it (shown only if a choice is made); with args it is said at once", () => {
    const v = view();
    v.handle({ type: "submission_start", id: "s1", text: "/model" });
    expect(v.takeCommitted()).toEqual([]);
    expect(v.takeHeldEcho().map(stripAnsi)).toEqual(["", "› /model"]);
    v.handle({ type: "submission_end", outcome: { id: "s1", status: "done" } } as any);
    expect(v.takeCommitted()).toEqual([]);
    v.handle({ type: "submission_start", id: "s2", text: "/model gpt-5.4" });
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["", "› /model gpt-5.4"]);
    expect(v.takeHeldEcho()).toEqual([]);
  });

  test("while a question waits, the work row says so and has no spinner or seconds", () => {
    const v = view();
    v.handle({ type: "submission_start", id: "s1", text: "go" });
    expect(v.liveRows(0, 10).map(stripAnsi)).toEqual(["⠋ working… 0s · esc to interrupt"]);
    expect(v.liveRows(0, 10, true).map(stripAnsi)).toEqual(["? waiting for your answer"]);
  });

  test("a change is drawn from the diff the tool returned, with line numbers and context; the view reads no file", () => {
    const v = view();
    const display = {
      kind: "diff",
      path: "a.txt",
      created: false,
      ...lineDiff("line 1\nline 2\nline 3\n", "line 1\nline TWO\nline 3\n"),
    };
    v.handle({ type: "tool_start", id: "w1", name: "Write", input: { path: "a.txt", content: "ignored" } } as any);
    v.handle({
      type: "tool_end",
      id: "w1",
      name: "Write",
      is_error: false,
      summary: "Updated a.txt (23 bytes, 3 lines)",
      display,
    } as any);
    expect(v.takeCommitted().map(stripAnsi)).toEqual([
      "● Write(a.txt)",
      "  ⎿ Updated a.txt (23 bytes, 3 lines)",
      "    1   line 1",
      "    2 - line 2",
      "    2 + line TWO",
      "    3   line 3",
    ]);
  });

  test("a failed call has its own glyph (no colour needed) and a failed command its exit code", () => {
    const v = view();
    v.handle({ type: "tool_start", id: "b1", name: "Bash", input: { command: "true" } } as any);
    v.handle({
      type: "tool_end",
      id: "b1",
      name: "Bash",
      is_error: false,
      summary: "(no output)",
      display: { kind: "command", exit_code: 0, lines: 0 },
    });
    v.handle({ type: "tool_start", id: "b2", name: "Bash", input: { command: "false" } } as any);
    v.handle({
      type: "tool_end",
      id: "b2",
      name: "Bash",
      is_error: true,
      summary: "(no output)",
      display: { kind: "command", exit_code: 3, lines: 0 },
    });
    v.handle({ type: "tool_start", id: "r1", name: "Read", input: { path: "nope" } } as any);
    v.handle({ type: "tool_end", id: "r1", name: "Read", is_error: true, summary: "no such file" });
    const rows = v.takeCommitted();
    expect(rows[0]).toBe("● Bash(true)");
    expect(rows[2]).toBe("✗ Bash(false) · exit 3");
    expect(rows[4]).toBe("✗ Read(nope)");
  });

  test("Ctrl-O shows the last tool call's whole result, every line", () => {
    const v = view();
    v.handle({ type: "tool_start", id: "b1", name: "Bash", input: { command: "seq 1 30" } } as any);
    v.handle({ type: "tool_end", id: "b1", name: "Bash", is_error: false, summary: "1 … (30 lines)" });
    const text = `${Array.from({ length: 30 }, (_, i) => String(i + 1)).join("\n")}\n\nExit code: 0`;
    v.handle({
      type: "user",
      message: { id: "u", role: "user", ts: 0, content: [{ type: "tool_result", tool_use_id: "b1", content: text }] },
    });
    v.takeCommitted();
    v.expandLast();
    const rows = v.takeCommitted();
    expect(rows[0]).toBe("  ⎿ Bash(seq 1 30): 32 lines");
    expect(rows.slice(1, 31)).toEqual(Array.from({ length: 30 }, (_, i) => `    ${i + 1}`));
  });

  test("a status notice goes after a while; a model change adds none (the status line shows the model)", () => {
    const v = view();
    v.handle({
      type: "compact_boundary",
      trigger: "auto",
      method: "summary",
      tokens_before: 9000,
      tokens_after: 1000,
      messages_replaced: 4,
    } as any);
    expect(v.notice).toContain("condensed");
    expect(v.noticeUntil).toBeGreaterThan(Date.now());
    (v as any).noticeUntil = Date.now() - 1;
    expect(v.notice).toBeUndefined();
    v.takeCommitted();
    v.handle({ type: "model_changed", model: "anthropic/a-very-long-model-name-that-goes-on" } as any);
    expect(v.notice).toBeUndefined();
    expect(v.takeCommitted()).toEqual([]);
  });

  test("a batch taller than the room keeps every running task's row and counts the queued ones", () => {
    const v = view();
    v.handle({ type: "submission_start", id: "s1", text: "go" });
    for (let i = 0; i < 8; i++)
      v.handle({ type: "task_start", id: `t${i}`, kind: "task:explore", description: `label ${i}` });
    for (let i = 0; i < 3; i++) v.handle({ type: "task_progress", id: `t${i}`, state: "running", tool_calls: 0 });
    const rows = v.liveRows(0, 6).map(stripAnsi);
    expect(rows.length).toBeLessThanOrEqual(6);
    for (let i = 0; i < 3; i++) expect(rows.some((r) => r.includes(`label ${i}`))).toBe(true);
    expect(rows.some((r) => r.includes("5 more queued"))).toBe(true);
    expect(rows.at(-1)).toContain("working…");
  });
});

describe("sub-agent rows", () => {
  test("finished sub-agents reach the scrollback in call order, each with its result under it", () => {
    const v = view();
    v.handle({ type: "submission_start", id: "s1", text: "go" });
    for (const id of ["a", "b"]) {
      v.handle({ type: "tool_start", id, name: "Bash", input: { command: `task:explore --prompt ${id}` } });
      v.handle({ type: "task_start", id, kind: "task:explore", description: `look ${id}` });
      v.handle({ type: "task_progress", id, state: "running", tool_calls: 0 });
    }
    v.takeCommitted();
    // b finishes first: nothing goes to the scrollback yet, its row shows done in the live region.
    v.handle({ type: "task_end", id: "b", is_error: false, duration_ms: 100, tool_calls: 1, summary: "b found" });
    v.handle({ type: "tool_end", id: "b", name: "Bash", is_error: false, summary: "b found" });
    expect(v.takeCommitted()).toEqual([]);
    expect(
      v
        .liveRows(0, 20)
        .map(stripAnsi)
        .some((r) => r.startsWith("✓ task:explore look b")),
    ).toBe(true);
    v.handle({ type: "task_end", id: "a", is_error: false, duration_ms: 200, tool_calls: 2, summary: "a found" });
    v.handle({ type: "tool_end", id: "a", name: "Bash", is_error: false, summary: "a found" });
    const out = v.takeCommitted().map(stripAnsi);
    expect(out.map((l) => l.replace(/ · .*/, ""))).toEqual([
      "✓ task:explore look a",
      "  ⎿ a found",
      "✓ task:explore look b",
      "  ⎿ b found",
    ]);
  });
});

describe("replay of a resumed session", () => {
  const msg = (role: "user" | "assistant", content: any[], extra: object = {}) =>
    ({ id: Math.random().toString(36), role, content, ts: 0, ...extra }) as any;
  test("from the last compaction record on (kept turns once), tool calls with how they ended", () => {
    const v = view();
    const kept = [
      msg("user", [{ type: "text", text: "kept prompt" }]),
      msg("assistant", [{ type: "text", text: "kept answer" }]),
    ];
    const record = msg("user", [{ type: "text", text: "summary" }], { compaction: { trigger: "manual" } });
    const tail = [
      msg("assistant", [
        { type: "tool_use", id: "c1", name: "Bash", input: { command: "make" } },
        { type: "tool_use", id: "c2", name: "Bash", input: { command: "ls" } },
      ]),
      msg("user", [
        { type: "tool_result", tool_use_id: "c1", content: "make: *** no rule\nexit 2", is_error: true },
        { type: "tool_result", tool_use_id: "c2", content: "a\nb\nc" },
      ]),
    ];
    v.replay([...kept, record, ...kept, ...tail], 12);
    const out = v
      .takeCommitted()
      .map(stripAnsi)
      .filter((l) => l !== "");
    expect(out.filter((l) => l.includes("kept prompt"))).toHaveLength(1);
    expect(out.some((l) => l.includes("earlier messages not shown"))).toBe(false);
    expect(out).toContain("✗ Bash(make)");
    // A command's first lines, as its row showed them live.
    const at = (row: string) => out.indexOf(row);
    expect(out.slice(at("✗ Bash(make)"), at("✗ Bash(make)") + 3)).toEqual([
      "✗ Bash(make)",
      "  ⎿ make: *** no rule",
      "    exit 2",
    ]);
    expect(out.slice(at("● Bash(ls)"))).toEqual(["● Bash(ls)", "  ⎿ a", "    b", "    c"]);
  });
  test("without a record among them, says that older messages exist", () => {
    const v = view();
    v.replay([msg("user", [{ type: "text", text: "hi" }])], 30);
    expect(v.takeCommitted().map(stripAnsi)[0]).toBe("  … 30 earlier messages not shown");
  });
});

test.each([
  ["(no output)\n\nExit code: 3", "(no output)", " · exit 3"],
  ["a\nb\n\nExit code: 0", "a\nb", ""],
  ["a\n\nb\n\nExit code: 1 (SIGTERM)\ncwd now: /tmp", "a\n\nb", " · exit 1"],
  ["no facts at all", "no facts at all", ""],
])("a replayed Bash result %#: its output without the facts for the model, and the exit note", (stored, text, note) => {
  expect(replayedCommand(stored)).toEqual({ text, note });
});
