// Building request context from a window whose edges may be cut mid-exchange.
import { describe, expect, test } from "bun:test";
import { buildContext } from "../../src/context/context.ts";
import type { ContentBlock, Message } from "../../src/protocol/message.ts";

let n = 0;
const msg = (role: "user" | "assistant", ...content: ContentBlock[]): Message => ({
  id: `id${++n}`,
  role,
  content,
  ts: n,
});
const text = (t: string): ContentBlock => ({ type: "text", text: t });
const use = (id: string): ContentBlock => ({ type: "tool_use", id, name: "Read", input: {} });
const result = (id: string): ContentBlock => ({ type: "tool_result", tool_use_id: id, content: "r" });

function shape(messages: Message[]): string[] {
  return messages.map(
    (m) =>
      `${m.role}:${m.content.map((b) => (b.type === "tool_use" ? `use(${b.id})` : b.type === "tool_result" ? `result(${b.tool_use_id})` : b.type)).join(",")}`,
  );
}

describe("buildContext", () => {
  test("a complete exchange is unchanged", () => {
    const w = [
      msg("user", text("q")),
      msg("assistant", use("a")),
      msg("user", result("a")),
      msg("assistant", text("done")),
    ];
    expect(buildContext(w)).toEqual(w);
  });

  test("a window that starts at a tool result skips to the next prompt", () => {
    const w = [
      msg("user", result("gone")),
      msg("assistant", text("x")),
      msg("user", text("q2")),
      msg("assistant", text("y")),
    ];
    expect(shape(buildContext(w))).toEqual(["user:text", "assistant:text"]);
  });

  test("a window that starts with an assistant message skips it", () => {
    const w = [msg("assistant", use("a")), msg("user", result("a")), msg("user", text("q"))];
    expect(shape(buildContext(w))).toEqual(["user:text"]);
  });

  test("a tool call with no result (killed mid-tool) gets an error result, merged with the next prompt", () => {
    const w = [
      msg("user", text("q")),
      msg("assistant", use("a"), use("b")),
      msg("user", result("a")),
      msg("user", text("next")),
    ];
    const out = buildContext(w);
    expect(shape(out)).toEqual(["user:text", "assistant:use(a),use(b)", "user:result(a),result(b),text"]);
    const repaired = out[2]?.content.find((b) => b.type === "tool_result" && b.tool_use_id === "b");
    expect(repaired).toMatchObject({ is_error: true });
  });

  test("a trailing tool call with nothing after it is repaired", () => {
    const w = [msg("user", text("q")), msg("assistant", use("a"))];
    expect(shape(buildContext(w))).toEqual(["user:text", "assistant:use(a)", "user:result(a)"]);
  });

  test("a summary may start the context", () => {
    const summary: Message = { ...msg("assistant", text("summary")), isSummary: true };
    const w = [msg("user", result("x")), summary, msg("user", text("q"))];
    expect(shape(buildContext(w))).toEqual(["assistant:text", "user:text"]);
  });

  test("empty window", () => {
    expect(buildContext([])).toEqual([]);
  });
});

describe("context after eviction, with a task and compaction records", () => {
  const task = msg("user", text("TASK"));
  const record = (summary: string): Message => ({
    ...msg("user", text(`record: ${summary}`)),
    isSummary: true,
    compaction: {
      trigger: "auto",
      firstId: task.id,
      lastId: "x",
      count: 5,
      tokensBefore: 10,
      tokensAfter: 2,
      keptIds: [],
      method: "summary",
      task: "TASK",
      summary,
    },
  });

  test("the window still starts with the task: unchanged", () => {
    const w = [task, msg("assistant", use("a")), msg("user", result("a"))];
    expect(buildContext(w, { task, total: 3 })).toEqual(w);
  });

  test("task evicted, no record: a marker carries the task and says how many were left out", () => {
    // The old behaviour (no plain prompt left in the window) sent an empty list.
    const w = [
      msg("user", result("gone")),
      msg("assistant", use("b")),
      msg("user", result("b")),
      msg("assistant", use("c")),
      msg("user", result("c")),
    ];
    const out = buildContext(w, { task, total: 41 });
    expect(shape(out)).toEqual([
      "user:text",
      "assistant:use(b)",
      "user:result(b)",
      "assistant:use(c)",
      "user:result(c)",
    ]);
    const marker = (out[0]!.content[0] as { text: string }).text;
    expect(marker).toContain("<task>\nTASK\n</task>");
    expect(marker).toContain("[37 earlier messages were left out here");
  });

  test("without a known task the old edge repair applies, and never yields an empty list when a task is given", () => {
    const w = [msg("assistant", use("a")), msg("user", result("a"))];
    expect(buildContext(w)).toEqual([]);
    expect(buildContext(w, { task, total: 10 }).length).toBeGreaterThan(0);
  });

  test("the last compaction record starts the context; what came before it is not sent", () => {
    const r1 = record("one");
    const r2 = record("two");
    const after = [msg("assistant", use("k")), msg("user", result("k"))];
    const w = [task, msg("assistant", text("old")), r1, msg("assistant", text("mid")), r2, ...after];
    const out = buildContext(w, { task, total: 7 });
    expect(out[0]).toBe(r2);
    expect(out.slice(1)).toEqual(after);
  });

  test("a record followed by a prompt is merged into one user message", () => {
    const r = record("s");
    const out = buildContext([r, msg("user", text("next")), msg("assistant", text("ok"))], { task });
    expect(shape(out)).toEqual(["user:text,text", "assistant:text"]);
  });

  test("a record whose kept turns were torn by a crash still gives a valid conversation", () => {
    const r = record("s");
    const out = buildContext([r, msg("assistant", use("z"))], { task });
    expect(shape(out)).toEqual(["user:text", "assistant:use(z)", "user:result(z)"]);
  });
});

describe("context when memory pressure evicted the last compaction record", () => {
  test("a marker from the kept record carries its task and summary", () => {
    const task = msg("user", text("TASK"));
    const record: Message = {
      ...msg("user", text("record")),
      isSummary: true,
      compaction: {
        trigger: "auto",
        firstId: task.id,
        lastId: "x",
        count: 9,
        tokensBefore: 10,
        tokensAfter: 2,
        keptIds: [],
        method: "summary",
        task: "TASK",
        summary: "SUMMARY-1",
      },
    };
    const w = [msg("user", result("gone")), msg("assistant", use("q")), msg("user", result("q"))];
    const out = buildContext(w, { task, record, total: 30 });
    expect(shape(out)).toEqual(["user:text", "assistant:use(q)", "user:result(q)"]);
    const marker = (out[0]!.content[0] as { text: string }).text;
    expect(marker).toContain("<task>\nTASK\n</task>");
    expect(marker).toContain("<summary>\nSUMMARY-1\n</summary>");
    expect(marker).toContain("[28 earlier messages were left out here");
  });
});
