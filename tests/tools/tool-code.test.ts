// Start-up (issue 23 §3): a session's built-in tools are known by name, description and JSON Schema
// (registry.ts) and their code loads on the first call (tool-code.ts). What a request says of a tool
// before its code loaded must be what the code says, and a call must reach the code it names.
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { toolInput } from "../../src/tools/input-schema.ts";
import { lazyTool } from "../../src/tools/lazy-tool.ts";
import { ALL_TOOLS, toolsFor } from "../../src/tools/registry.ts";
import { TOOL_CODE } from "../../src/tools/tool-code.ts";
import { loadedTool, type Tool } from "../../src/tools/types.ts";
import { executeToolCall } from "../../src/agent/tool-call.ts";
import { makeContext } from "./tool-context.ts";

test("the tools are listed in their code's order, as requests list them", () => {
  expect(ALL_TOOLS.map((t) => t.name)).toEqual(TOOL_CODE.map((t) => t.name));
  expect([...toolsFor("main").keys()]).toEqual(TOOL_CODE.map((t) => t.name));
});

test.each(TOOL_CODE.map((code) => [code.name, code] as const))(
  "%s: what a request says of it before its code loads is what its code says",
  async (name, code) => {
    const tool = ALL_TOOLS.find((t) => t.name === name)!;
    expect(tool.description).toBe(code.description);
    expect(tool.readOnly).toBe(code.readOnly);
    expect(JSON.stringify(tool.inputSchema)).toBe(JSON.stringify(code.inputSchema));
    expect(await loadedTool(tool)).toBe(code);
    expect(tool.input).toBe(code.input);
  },
);

function countedLazy() {
  let loads = 0;
  const code: Tool = {
    name: "Echo",
    description: "echoes",
    readOnly: true,
    input: toolInput({ text: z.string() }),
    inputSchema: { type: "object", properties: {} },
    execute: async (input) => ({ content: String(input.text) }),
  };
  const tool = lazyTool(
    { name: "Echo", description: "echoes", readOnly: true },
    async () => {
      loads++;
      return code;
    },
    () => ({ type: "object", properties: {} }),
  );
  return { tool, code, loads: () => loads };
}

test("a lazy tool's input schema is there only once its code loaded, which happens once", async () => {
  const { tool, code, loads } = countedLazy();
  expect(tool.inputSchema).toEqual({ type: "object", properties: {} });
  expect(loads()).toBe(0);
  expect(() => tool.input).toThrow("Echo's code is not loaded yet");
  const [a, b] = await Promise.all([loadedTool(tool), loadedTool(tool)]);
  expect(a).toBe(code);
  expect(b).toBe(code);
  expect(tool.input).toBe(code.input);
  expect(loads()).toBe(1);
});

test("a lazy tool run without an explicit load loads its code and runs it", async () => {
  const { tool, loads } = countedLazy();
  expect(await tool.execute({ text: "hi" }, makeContext("/tmp"))).toEqual({ content: "hi" });
  expect(loads()).toBe(1);
});

test("a tool with no code to load is its own loaded tool", async () => {
  const { code } = countedLazy();
  expect(await loadedTool(code)).toBe(code);
});

test("a call of a tool whose code is not loaded yet is checked against the code's schema", async () => {
  const { tool, loads } = countedLazy();
  const tools = new Map([[tool.name, tool]]);
  const call = (input: unknown) =>
    executeToolCall({ type: "tool_use", id: "1", name: "Echo", input }, tools, makeContext("/tmp"));
  expect((await call({ text: 3 })).block).toMatchObject({ is_error: true, content: expect.stringContaining("text") });
  expect((await call({ text: "ok" })).block).toMatchObject({ content: "ok" });
  expect(loads()).toBe(1);
});
