// What the interactive session's view commits for the executor's events (pure: no terminal).

import { describe, expect, test } from "bun:test";
import { SessionView } from "../../../src/cli/interactive/session-view.ts";
import { makeTheme } from "../../../src/render/theme.ts";
import { stripAnsi } from "../../../src/render/text-width.ts";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const view = () => new SessionView(makeTheme(false), () => 80, 80);

describe("SessionView", () => {
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
    v.handle({ type: "compact_boundary", trigger: "manual", method: "summary", tokens_before: 172_000, tokens_after: 21_000, messages_replaced: 40 } as any);
    v.handle({ type: "compacted", id: "s1", tokens_before: 172_000, tokens_after: 21_000 });
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["  context condensed (summary): 172,000 → 21,000 tokens"]);
    v.handle({ type: "submission_start", id: "s2", text: "/compact" });
    v.takeCommitted();
    v.handle({ type: "compacted", id: "s2", tokens_before: 3_000, tokens_after: 3_000 });
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["nothing to compact: 3k tokens"]);
  });

  test("a Write over an existing file shows what changed in it, not every line as new", () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-view-"));
    writeFileSync(join(dir, "a.txt"), "line 1\nline 2\nline 3\n");
    const v = new SessionView(makeTheme(false), () => 80, 80, dir);
    v.handle({ type: "tool_start", id: "w1", name: "Write", input: { path: "a.txt", content: "line 1\nline TWO\nline 3\n" } } as any);
    writeFileSync(join(dir, "a.txt"), "line 1\nline TWO\nline 3\n");
    v.handle({ type: "tool_end", id: "w1", name: "Write", is_error: false, summary: "Updated a.txt (23 bytes, 3 lines)" } as any);
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["● Write(a.txt)", "  ⎿ Updated a.txt (23 bytes, 3 lines)", "    - line 2", "    + line TWO"]);
    // A new file is all additions.
    v.handle({ type: "tool_start", id: "w2", name: "Write", input: { path: "new.txt", content: "x\n" } } as any);
    v.handle({ type: "tool_end", id: "w2", name: "Write", is_error: false, summary: "Created new.txt" } as any);
    expect(v.takeCommitted().map(stripAnsi)).toEqual(["● Write(new.txt)", "  ⎿ Created new.txt", "    + x"]);
  });

  test("a batch taller than the room keeps every running task's row and counts the queued ones", () => {
    const v = view();
    v.handle({ type: "submission_start", id: "s1", text: "go" });
    for (let i = 0; i < 8; i++) v.handle({ type: "task_start", id: `t${i}`, kind: "task:explore", description: `label ${i}` });
    for (let i = 0; i < 3; i++) v.handle({ type: "task_progress", id: `t${i}`, state: "running", tool_calls: 0 });
    const rows = v.liveRows(0, 6).map(stripAnsi);
    expect(rows.length).toBeLessThanOrEqual(6);
    for (let i = 0; i < 3; i++) expect(rows.some((r) => r.includes(`label ${i}`))).toBe(true);
    expect(rows.some((r) => r.includes("5 more queued"))).toBe(true);
    expect(rows.at(-1)).toContain("working…");
  });
});
