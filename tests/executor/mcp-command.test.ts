// `/mcp` and the MCP prompts in /help and Tab completion, from plain data.

import { describe, expect, test } from "bun:test";
import { complete } from "../../src/cli/interactive/completion.ts";
import { COMMANDS, commandNames } from "../../src/executor/command-registry.ts";
import { describeServers } from "../../src/executor/commands/mcp.ts";
import { dispatch } from "../../src/executor/dispatch.ts";
import type { CommandContext } from "../../src/executor/slash-command.ts";
import type { ServerReport } from "../../src/mcp/servers.ts";

const every: ServerReport = {
  name: "every",
  scope: "flag",
  status: "connected",
  tools: ["echo", "add"],
  prompts: ["mcp__every__simple-prompt"],
};
const broken: ServerReport = {
  name: "broken",
  scope: "user",
  status: "failed",
  error: "spawn nope ENOENT",
  tools: [],
  prompts: [],
};
const repo: ServerReport = { name: "repo", scope: "project", status: "needs-approval", tools: [], prompts: [] };

function ctx(reports: ServerReport[]): CommandContext {
  return {
    facts: () => {
      throw new Error("not used");
    },
    listModels: async () => ({ models: [], source: "provider" }),
    listSessions: async () => [],
    commands: () => COMMANDS,
    mcpServers: async () => reports,
    signal: new AbortController().signal,
  };
}

describe("/mcp", () => {
  test.each([
    [[], ["No MCP servers configured (.mcp.json, --mcp-config, or `synapse mcp add`)."]],
    [
      [every],
      [
        "MCP servers:",
        "  every (flag): connected",
        "    2 tools: echo, add",
        "    prompts: /mcp__every__simple-prompt",
      ],
    ],
    [[broken], ["MCP servers:", "  broken (user): failed: spawn nope ENOENT"]],
    [
      [repo],
      [
        "MCP servers:",
        "  repo (project): needs approval (not started; approve at the next prompt, or run with --allow-project-mcp)",
      ],
    ],
    [[{ ...every, tools: ["echo"], prompts: [] }], ["MCP servers:", "  every (flag): connected", "    1 tool: echo"]],
  ] as [ServerReport[], string[]][])("%j", (reports, lines) => {
    expect(describeServers(reports)).toEqual(lines);
  });

  test("dispatched, it shows every server the session has", async () => {
    const out = await dispatch("/mcp", ctx([every, broken, repo]));
    expect(out.error).toBeUndefined();
    expect(out.lines.join("\n")).toContain("broken (user): failed: spawn nope ENOENT");
    expect(out.lines.join("\n")).toContain("repo (project): needs approval");
    expect((await dispatch("/mcp now", ctx([]))).error).toBe("/mcp takes no arguments");
  });
});

describe("MCP prompts as commands", () => {
  test("/help lists them", async () => {
    const out = await dispatch("/help", ctx([every]));
    expect(out.lines).toContain("  /mcp__every__simple-prompt");
    expect((await dispatch("/help", ctx([]))).lines.join("\n")).not.toContain("MCP prompts");
  });

  test("Tab completes them after the commands", () => {
    const names = [...commandNames(), "mcp__every__simple-prompt", "mcp__every__args-prompt"];
    expect(complete("/mcp__every__s", 14, "/", names)?.candidates).toEqual(["/mcp__every__simple-prompt "]);
    expect(complete("/mc", 3, "/", names)?.candidates).toEqual([
      "/mcp ",
      "/mcp__every__simple-prompt ",
      "/mcp__every__args-prompt ",
    ]);
  });
});
