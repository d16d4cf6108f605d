// The MCP servers an editor sends with `session/new` (ACP's shape: name, and command/args/env or
// type/url/headers, with env and headers as lists of {name, value}) become that session's servers
// as if given with --mcp-config: the user chose them in the editor, so no project approval applies.

import type { McpServer } from "@agentclientprotocol/sdk";
import type { Config } from "../config/config.ts";

const pairs = (list: readonly { name: string; value: string }[] | undefined): Record<string, string> =>
  Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));

/** The servers as a Claude Code-style `{"mcpServers": {...}}` object (a later name wins, as in a config file). */
export function claudeMcpConfig(servers: readonly McpServer[]): { mcpServers: Record<string, unknown> } {
  const mcpServers: Record<string, unknown> = {};
  for (const s of servers) {
    if ("type" in s && (s.type === "http" || s.type === "sse")) {
      mcpServers[s.name] = { type: s.type, url: s.url, headers: pairs(s.headers) };
    } else if ("command" in s) {
      mcpServers[s.name] = { command: s.command, args: s.args ?? [], env: pairs(s.env) };
    } else {
      // An entry of a kind not known here: kept as sent, so the server fails with a clear error.
      mcpServers[(s as { name: string }).name] = s;
    }
  }
  return { mcpServers };
}

/** `config` with the editor's servers added after any --mcp-config (they win for a name). */
export function withEditorMcpServers(config: Config, servers: readonly McpServer[] | undefined): Config {
  if (!servers?.length || !config.mcp) return config;
  const text = JSON.stringify(claudeMcpConfig(servers));
  return { ...config, mcp: { ...config.mcp, configs: [...config.mcp.configs, text] } };
}
