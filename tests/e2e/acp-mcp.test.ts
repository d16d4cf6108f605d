// The MCP servers an editor sends with ACP's `session/new` start for that session, as --mcp-config
// ones would (no project approval): the real server-everything over stdio, driven through the ACP
// SDK's client against the compiled binary and the fake model server.

import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { type AcpAgentProcess, initialize, startAcpAgent } from "../support/acp-client.ts";
import { providerEnv, tempHome } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
const EVERYTHING = resolve(import.meta.dir, "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const running: AcpAgentProcess[] = [];
afterEach(async () => {
  for (const a of running.splice(0)) {
    a.proc.kill("SIGKILL");
    await a.proc.exited;
  }
});

describe("synapse acp: the editor's MCP servers", () => {
  test("initialize offers http MCP servers; a stdio server of session/new is started, its tools called", async () => {
    const home = tempHome();
    const ws = join(home.dir, "project");
    mkdirSync(ws);
    const s = await serve([
      { toolCalls: [{ id: "toolu_env", name: "mcp__every__get-env", input: {} }] },
      { text: "done" },
    ]);
    const agent = startAcpAgent({ ...home.env, ...providerEnv(s.url) });
    running.push(agent);
    const init = await initialize(agent);
    expect(init.agentCapabilities?.mcpCapabilities).toMatchObject({ http: true });
    const every: acp.McpServer = {
      name: "every",
      command: "node",
      args: [EVERYTHING, "stdio"],
      env: [{ name: "EDITOR_MCP_MARK", value: "from-the-editor" }],
    };
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, {
      cwd: ws,
      mcpServers: [every],
    });
    const res = await agent.conn.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "env?" }],
    });
    expect(res.stopReason).toBe("end_turn");
    const tools: string[] = s.requests[0]!.body.tools.map((t: any) => t.name);
    expect(tools).toContain("mcp__every__echo");
    // The call asked the editor (MCP tools ask by default), then ran with the env the editor gave.
    expect(agent.permissions).toHaveLength(1);
    const results = JSON.stringify(s.requests[1]!.body.messages.at(-1));
    expect(results).toContain("from-the-editor");
    expect(await agent.end()).toBe(0);
  });

  test("a session without servers from the editor has no MCP tools", async () => {
    const home = tempHome();
    const ws = join(home.dir, "project");
    mkdirSync(ws);
    const s = await serve([{ text: "hi" }]);
    const agent = startAcpAgent({ ...home.env, ...providerEnv(s.url) });
    running.push(agent);
    await initialize(agent);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
    await agent.conn.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    expect(s.requests[0]!.body.tools.map((t: any) => t.name).filter((n: string) => n.startsWith("mcp__"))).toEqual([]);
    expect(await agent.end()).toBe(0);
  });
});
