// One tool call always becomes one tool result: failures of every kind, as is_error results.
import { describe, expect, test } from "bun:test";
import { executeToolCall } from "../../src/agent/tool-call.ts";
import { resolveConfig } from "../../src/config/config.ts";
import * as z from "zod/mini";
import { defineTool, toolInput } from "../../src/tools/input-schema.ts";
import { type Tool, type ToolContext, ToolError, toolLimits } from "../../src/tools/types.ts";

const input = toolInput({ n: z.int() });
function tool(execute: Tool<typeof input>["execute"]): Tool {
  return defineTool({ name: "T", description: "test tool", input, readOnly: true, execute });
}
function ctx(signal = new AbortController().signal): ToolContext {
  const config = resolveConfig({ flags: {}, env: {}, processCwd: "/", homeDir: "/" });
  return { cwd: "/", signal, taskId: "main", limits: toolLimits(config), progress: () => {}, services: {} };
}
const call = (input: unknown, name = "T") => ({ type: "tool_use" as const, id: "c1", name, input });

describe("executeToolCall", () => {
  test.each([
    [
      "unknown tool",
      call({ n: 1 }, "Nope"),
      tool(async () => ({ content: "x" })),
      /Unknown tool "Nope"\. Available tools: T/,
    ],
    [
      "invalid JSON from the model",
      { ...call({}), raw_input: '{"n": ' },
      tool(async () => ({ content: "x" })),
      /not valid JSON/,
    ],
    [
      "schema violation",
      call({ n: "one" }),
      tool(async () => ({ content: "x" })),
      /Invalid input for T: "n" must be an integer/,
    ],
    [
      "ToolError",
      call({ n: 1 }),
      tool(async () => {
        throw new ToolError("no such file");
      }),
      /^no such file$/,
    ],
    [
      "unexpected throw",
      call({ n: 1 }),
      tool(async () => {
        throw new TypeError("boom");
      }),
      /^T failed: boom$/,
    ],
    ["tool reports an error", call({ n: 1 }), tool(async () => ({ content: "exit 3", isError: true })), /^exit 3$/],
  ])("%s → is_error result", async (_name, c, t, message) => {
    const out = await executeToolCall(c, new Map([[t.name, t]]), ctx());
    expect(out.block.is_error).toBe(true);
    expect(out.block.tool_use_id).toBe("c1");
    expect(String(out.block.content)).toMatch(message);
  });

  test("a failure after interruption says so", async () => {
    const controller = new AbortController();
    controller.abort();
    const t = tool(async () => {
      throw new Error("EINTR");
    });
    const out = await executeToolCall(call({ n: 1 }), new Map([["T", t]]), ctx(controller.signal));
    expect(out.block.content).toBe("Interrupted by the user.");
  });

  test("half a surrogate pair in output is made well-formed (the API would reject it)", async () => {
    const t = tool(async () => ({ content: [{ type: "text", text: "cut \ud83d" }] }));
    const s = tool(async () => ({ content: "\ude00 tail" }));
    const a = await executeToolCall(call({ n: 1 }), new Map([["T", t]]), ctx());
    const b = await executeToolCall(call({ n: 1 }), new Map([["T", s]]), ctx());
    expect(a.block.content).toEqual([{ type: "text", text: "cut \uFFFD" }]);
    expect(b.block.content).toBe("\uFFFD tail");
    expect(a.block.is_error).toBeUndefined();
  });

  test("success: content and a one-line summary", async () => {
    const t = tool(async () => ({ content: "line one\nline two\n" }));
    const out = await executeToolCall(call({ n: 1 }), new Map([["T", t]]), ctx());
    expect(out.block).toEqual({ type: "tool_result", tool_use_id: "c1", content: "line one\nline two\n" });
    expect(out.summary).toBe("line one … (2 lines)");
  });
});
