// An in-process MCP server of the SDK program (createSdkMcpServer): synapse lists its tools over
// mcp_message control requests, the model calls one, and the program's handler answers it.

import { describe, expect, test } from "bun:test";
import { createSdkMcpServer, tool } from "@anthropic-ai/claude-agent-sdk";
import * as z from "zod";
import { collect, ofType, sdkOptions } from "../support/agent-sdk.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();

describe("SDK MCP servers", () => {
  test("the model calls a tool of the program's own server; its answer reaches the model", async () => {
    const calls: unknown[] = [];
    const add = tool("add", "Adds two numbers", { a: z.number(), b: z.number() }, async (args) => {
      calls.push(args);
      return { content: [{ type: "text", text: `sum is ${args.a + args.b}` }] };
    });
    const calc = createSdkMcpServer({ name: "calc", version: "1.0.0", tools: [add] });
    const s = await serve([
      { toolCalls: [{ id: "toolu_m1", name: "mcp__calc__add", input: { a: 2, b: 40 } }] },
      { text: "it is 42" },
    ]);
    const options = sdkOptions(s.url, { mcpServers: { calc }, allowedTools: ["mcp__calc__add"] });
    const run = await collect("add 2 and 40", options);
    expect(run.error).toBeUndefined();
    const init = ofType(run.messages, "system").find((m) => m.subtype === "init");
    expect(init!.tools).toContain("mcp__calc__add");
    expect(init!.mcp_servers).toContainEqual({ name: "calc", status: "connected" });
    expect(calls).toEqual([{ a: 2, b: 40 }]);
    expect(JSON.stringify(s.requests[1]!.body.messages.at(-1).content)).toContain("sum is 42");
    // The tool was offered to the model under synapse's MCP name.
    expect(s.requests[0]!.body.tools.map((t: any) => t.name)).toContain("mcp__calc__add");
  });
});
