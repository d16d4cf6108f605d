// The tools the model can call, and which of them each kind of agent gets. A request needs only
// each tool's name, description and JSON Schema; the tools' code (and zod, which checks their
// input) loads on the first tool call (tool-code.ts), off a run's way to its first request.

import bashAbout from "./bash.md" with { type: "text" };
import editAbout from "./edit.md" with { type: "text" };
import globAbout from "./glob.md" with { type: "text" };
import grepAbout from "./grep.md" with { type: "text" };
import readAbout from "./read.md" with { type: "text" };
import writeAbout from "./write.md" with { type: "text" };
import type { PermissionMode } from "../config/config.ts";
import { lazyTool, type ToolHead } from "./lazy-tool.ts";
import { builtInSchema } from "./prebuilt-schemas.ts";
import type { Tool } from "./types.ts";

// Each must say what its code says (tests/tools/tool-code.test.ts holds them to it).
const HEADS: readonly ToolHead[] = [
  { name: "Bash", description: bashAbout, readOnly: false },
  { name: "Read", description: readAbout, readOnly: true },
  { name: "Write", description: writeAbout, readOnly: false },
  { name: "Edit", description: editAbout, readOnly: false },
  { name: "Glob", description: globAbout, readOnly: true },
  { name: "Grep", description: grepAbout, readOnly: true },
];

async function codeOf(name: string): Promise<Tool> {
  const { TOOL_CODE } = await import("./tool-code.ts");
  const tool = TOOL_CODE.find((t) => t.name === name);
  if (!tool) throw new Error(`no built-in tool is named ${name}`);
  return tool;
}

export const ALL_TOOLS: readonly Tool[] = HEADS.map((head) =>
  lazyTool(
    head,
    () => codeOf(head.name),
    () => builtInSchema(head.name),
  ),
);

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
