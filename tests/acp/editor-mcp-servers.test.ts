// ACP's MCP server entries (session/new) as the config synapse reads for --mcp-config.

import { describe, expect, test } from "bun:test";
import { claudeMcpConfig, withEditorMcpServers } from "../../src/acp/editor-mcp-servers.ts";
import { parseServerEntry } from "../../src/mcp/server-entry.ts";
import type { Config } from "../../src/config/config.ts";

describe("claudeMcpConfig", () => {
  test("stdio, http and sse entries, env and headers as objects; each a valid server entry", () => {
    const out = claudeMcpConfig([
      { name: "fs", command: "npx", args: ["-y", "server"], env: [{ name: "TOKEN", value: "t" }] },
      {
        type: "http",
        name: "web",
        url: "https://mcp.example/mcp",
        headers: [{ name: "Authorization", value: "Bearer x" }],
      },
      { type: "sse", name: "old", url: "https://mcp.example/sse", headers: [] },
    ]);
    expect(out.mcpServers).toEqual({
      fs: { command: "npx", args: ["-y", "server"], env: { TOKEN: "t" } },
      web: { type: "http", url: "https://mcp.example/mcp", headers: { Authorization: "Bearer x" } },
      old: { type: "sse", url: "https://mcp.example/sse", headers: {} },
    });
    for (const entry of Object.values(out.mcpServers)) expect(parseServerEntry(entry).ok).toBe(true);
  });
});

describe("withEditorMcpServers", () => {
  const config = { mcp: { configs: ["/a/mcp.json"], userServers: {}, strict: false } } as unknown as Config;
  test("adds them after the --mcp-config values; none leaves the config as it is", () => {
    const out = withEditorMcpServers(config, [{ name: "x", command: "x", args: [], env: [] }]);
    expect(out.mcp!.configs).toEqual(["/a/mcp.json", '{"mcpServers":{"x":{"command":"x","args":[],"env":{}}}}']);
    expect(config.mcp!.configs).toEqual(["/a/mcp.json"]);
    expect(withEditorMcpServers(config, [])).toBe(config);
  });
});
