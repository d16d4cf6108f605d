// The built-in tools an agent is offered: its kind's (registry.ts), less those `--tools` leaves out
// and those a deny rule refuses every call of (`--deny Write`, a config's `"deny": ["Write"]`,
// `--disallowedTools Write`): the model is not shown a tool it could only ever be refused.

import type { Config } from "../config/config.ts";
import { deniesWholeTool } from "../policy/denied-tools.ts";
import { type AgentKind, toolsFor } from "./registry.ts";
import type { Tool } from "./types.ts";

export type ToolOfferConfig = Pick<Config, "tools"> & { permissions: Pick<Config["permissions"], "deny"> };

export function offeredTools(kind: AgentKind, config: ToolOfferConfig): Map<string, Tool> {
  const { deny } = config.permissions;
  return new Map(
    [...toolsFor(kind)].filter(([name]) => (config.tools?.includes(name) ?? true) && !deniesWholeTool(deny, name)),
  );
}
