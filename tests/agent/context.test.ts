// Building request context from a window whose edges may be cut mid-exchange.
import { describe, expect, test } from "bun:test";
import { buildContext } from "../../src/agent/context.ts";
import type { ContentBlock, Message } from "../../src/protocol/message.ts";

let n = 0;
const msg = (role: "user" | "assistant", ...content: ContentBlock[]): Message => ({ id: `id${++n}`, role, content, ts: n });
const text = (t: string): ContentBlock => ({ type: "text", text: t });
const use = (id: string): ContentBlock => ({ type: "tool_use", id, name: "Read", input: {} });
const result = (id: string): ContentBlock => ({ type: "tool_result", tool_use_id: id, content: "r" });

function shape(messages: Message[]): string[] {
  return messages.map((m) => `${m.role}:${m.content.map((b) => (b.type === "tool_use" ? `use(${b.id})` : b.type === "tool_result" ? `result(${b.tool_use_id})` : b.type)).join(",")}`);
}

describe("buildContext", () => {
  test("a complete exchange is unchanged", () => {
    const w = [msg("user", text("q")), msg("assistant", use("a")), msg("user", result("a")), msg("assistant", text("done"))];
    expect(buildContext(w)).toEqual(w);
  });

  test("a window that starts at a tool result skips to the next prompt", () => {
    const w = [msg("user", result("gone")), msg("assistant", text("x")), msg("user", text("q2")), msg("assistant", text("y"))];
    expect(shape(buildContext(w))).toEqual(["user:text", "assistant:text"]);
  });

  test("a window that starts with an assistant message skips it", () => {
    const w = [msg("assistant", use("a")), msg("user", result("a")), msg("user", text("q"))];
    expect(shape(buildContext(w))).toEqual(["user:text"]);
  });

  test("a tool call with no result (killed mid-tool) gets an error result, merged with the next prompt", () => {
    const w = [msg("user", text("q")), msg("assistant", use("a"), use("b")), msg("user", result("a")), msg("user", text("next"))];
    const out = buildContext(w);
    expect(shape(out)).toEqual(["user:text", "assistant:use(a),use(b)", "user:result(a),result(b),text"]);
    const repaired = out[2].content.find((b) => b.type === "tool_result" && b.tool_use_id === "b");
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
