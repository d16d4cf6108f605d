// Start-up (issue 23 §3): no schema is built on the way to the first request. A tool's zod schema
// and JSON Schema are built on first use, once; the hooks' schemas only when hooks are configured
// or a hook answers.
import { expect, test } from "bun:test";
import * as z from "zod/mini";
import { checkToolInput, defineTool, toolInput } from "../../src/tools/input-schema.ts";
import { checkHookSettings } from "../../src/protocol/hook-events.ts";
import { outcomeFromCommand } from "../../src/hooks/hook-output.ts";
import { TOOL_CODE } from "../../src/tools/tool-code.ts";

function countedTool() {
  let builds = 0;
  const tool = defineTool({
    name: "Counted",
    description: "counts its schema's builds",
    readOnly: true,
    input: () => {
      builds++;
      return toolInput({ n: z.int() });
    },
    execute: async (input) => ({ content: String(input.n) }),
  });
  return { tool, builds: () => builds };
}

test("defining a tool builds no schema", () => {
  expect(countedTool().builds()).toBe(0);
});

test("the first call's check builds the schema once, and later uses share it", () => {
  const { tool, builds } = countedTool();
  expect(checkToolInput(tool.input, { n: 2 })).toEqual({ ok: true, value: { n: 2 } });
  expect(checkToolInput(tool.input, { n: "x" }).ok).toBe(false);
  expect(tool.input).toBe(tool.input);
  expect(tool.inputSchema).toMatchObject({ type: "object", properties: { n: { type: "integer" } } });
  expect(tool.inputSchema).toBe(tool.inputSchema);
  expect(builds()).toBe(1);
});

test("a tool's JSON Schema alone builds its zod schema once too", () => {
  const { tool, builds } = countedTool();
  expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(["n"]);
  expect(Object.keys(tool.input.shape)).toEqual(["n"]);
  expect(builds()).toBe(1);
});

test("a spread tool keeps its name, schema and execute", () => {
  const { tool } = countedTool();
  const copy = { ...tool };
  expect(copy.name).toBe("Counted");
  expect(copy.input).toBe(tool.input);
  expect(typeof copy.execute).toBe("function");
});

test("every built-in tool's schema is built lazily and still checks calls", () => {
  for (const t of TOOL_CODE) {
    const shape = Object.keys(t.input.shape);
    expect(shape.length).toBeGreaterThan(0);
    expect(checkToolInput(t.input, { not_a_parameter: 1 }).ok).toBe(false);
  }
});

test("hook settings and hook answers are still checked once their schemas are built", () => {
  expect(checkHookSettings({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "x" }] }] })).toEqual({
    ok: true,
    settings: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "x" }] }] },
  });
  expect(checkHookSettings({ PreToolUse: [{ matcher: "(", hooks: [] }] }).ok).toBe(false);
  const answer = JSON.stringify({ decision: "block", reason: "no" });
  expect(outcomeFromCommand("PreToolUse", { code: 0, stdout: answer, stderr: "" }, "h")).toEqual({ block: "no" });
  const bad = JSON.stringify({ decision: 3 });
  expect(outcomeFromCommand("PreToolUse", { code: 0, stdout: bad, stderr: "" }, "h").notice).toContain("cannot use");
});
