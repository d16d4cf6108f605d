// The permission gate in the tool-call path: a refused call is an is_error result marked `denied`
// and the tool never runs; results and live output are screened for secret values.
import { afterEach, expect, test } from "bun:test";
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { executeToolCall } from "../../src/agent/tool-call.ts";
import { buildPolicy } from "../../src/policy/policy.ts";
import { readTool } from "../../src/tools/read.ts";
import { writeTool } from "../../src/tools/write.ts";
import { defineTool, toolInput } from "../../src/tools/input-schema.ts";
import type { Tool, ToolServices } from "../../src/tools/types.ts";
import { makeContext, tempDir } from "../tools/tool-context.ts";

const SECRET = "sk-live-0123456789abcdef";
const tools = new Map<string, Tool>([
  ["Write", writeTool],
  ["Read", readTool],
]);
let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function setup() {
  const t = tempDir();
  cleanup = t.cleanup;
  const ws = realpathSync(t.dir);
  const services: ToolServices = {
    permissions: buildPolicy(
      {
        cwd: join(ws, "proj"),
        permissionMode: "default",
        permissions: { allow: [], deny: [] },
        addDirs: [],
        secrets: [SECRET],
      },
      ws,
    ),
  };
  Bun.spawnSync(["mkdir", "-p", join(ws, "proj")]);
  return { ws, cwd: join(ws, "proj"), services };
}

test("a refused Write never runs: is_error, the reason, and the flag that would allow it", async () => {
  const { ws, cwd, services } = setup();
  const out = await executeToolCall(
    { type: "tool_use", id: "t1", name: "Write", input: { path: "../x.txt", content: "x" } },
    tools,
    makeContext(cwd, { services }),
  );
  expect(out.block.is_error).toBe(true);
  expect(out.denied?.allowWith).toBe(`--allow 'Write(${join(ws, "x.txt")})'`);
  expect(existsSync(join(ws, "x.txt"))).toBe(false);
});

test("secret values are redacted from results and from live progress", async () => {
  const { cwd, services } = setup();
  writeFileSync(join(cwd, "conf.ini"), `key=${SECRET}\n`);
  const out = await executeToolCall(
    { type: "tool_use", id: "t2", name: "Read", input: { path: "conf.ini" } },
    tools,
    makeContext(cwd, { services }),
  );
  expect(String(out.block.content)).toContain("key=[redacted]");
  expect(String(out.block.content)).not.toContain(SECRET);
  const progress: string[] = [];
  const echo: Tool = defineTool({
    name: "Echo",
    description: "",
    input: toolInput({}),
    readOnly: true,
    async execute(_i, ctx) {
      ctx.progress(`live ${SECRET}`);
      return { content: "done" };
    },
  });
  const ctx = { ...makeContext(cwd, { services }), progress: (t: string) => progress.push(t) };
  await executeToolCall({ type: "tool_use", id: "t3", name: "Echo", input: {} }, new Map([["Echo", echo]]), ctx);
  expect(progress).toEqual(["live [redacted]"]);
});
