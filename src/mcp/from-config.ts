// A session's MCP input from the one Config: the servers of the user config, the project's
// `.mcp.json` and `--mcp-config`, the bounds, and what may approve a project's server.

import { join } from "node:path";
import type { Config } from "../config/config.ts";
import type { McpSessionInput } from "./servers.ts";
import { configuredServers, type ConfiguredServer } from "./sources.ts";

export const USER_CONFIG_FILE = "config.json";

export function userConfigPath(config: Config): string {
  return join(config.configDir ?? join(config.home, "config"), USER_CONFIG_FILE);
}

export function serversFromConfig(config: Config, warn: (message: string) => void): ConfiguredServer[] {
  const mcp = config.mcp;
  if (!mcp) return [];
  const { userServers, configs: flagConfigs, strict } = mcp;
  const userOrigin = userConfigPath(config);
  return configuredServers({ cwd: config.cwd, userServers, userOrigin, flagConfigs, strict }, warn);
}

/** `servers` from serversFromConfig, read before the session opens (a bad --mcp-config stops the run first). */
export function mcpSessionInput(
  config: Config,
  servers: ConfiguredServer[],
  sessionDir: string,
  warn: (message: string) => void,
): McpSessionInput {
  const mcp = config.mcp;
  return {
    cwd: config.cwd,
    home: config.home,
    env: config.shell.env,
    sessionDir,
    servers,
    allowProject: mcp?.allowProject ?? false,
    allowRules: config.permissions.allow,
    startTimeoutMs: mcp?.startTimeoutMs ?? 30_000,
    callTimeoutMs: mcp?.toolTimeoutMs ?? 600_000,
    maxOutputTokens: mcp?.maxOutputTokens ?? 25_000,
    readOnlyOnly: config.permissionMode === "plan",
    denyRules: config.permissions.deny,
    warn,
  };
}
