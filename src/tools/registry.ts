// The tools the model can call, and which of them each kind of agent gets.

import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { readTool } from "./read.ts";
import type { PermissionMode } from "../config/config.ts";
import type { Tool } from "./types.ts";
import { writeTool } from "./write.ts";

export const ALL_TOOLS: readonly Tool[] = [bashTool, readTool, writeTool, editTool, globTool, grepTool];

export type AgentKind = "main" | "plan" | "explore";

/**
 * The kind of agent a session or a sub-agent runs as: an `explore` task only looks, and in plan
 * mode so does every agent, the main one and each `task:general`. The one place this is decided.
 */
export function agentKind(mode: PermissionMode, task?: "explore" | "general"): AgentKind {
  if (task === "explore") return "explore";
  return mode === "plan" ? "plan" : "main";
}

/** `plan` and `explore` agents look but do not touch: read-only tools only. */
export function toolsFor(kind: AgentKind): Map<string, Tool> {
  const tools = kind === "main" ? ALL_TOOLS : ALL_TOOLS.filter((t) => t.readOnly);
  return new Map(tools.map((t) => [t.name, t]));
}
