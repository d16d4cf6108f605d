// Permission rules for MCP tools (named `mcp__<server>__<tool>`): `mcp__<server>` covers every tool
// of that server, `mcp__<server>__<tool>` one tool. They ask by default, whatever the mode but
// bypass, since synapse cannot know what a server's tool does.

import type { Decision } from "./policy-types.ts";

const MCP_PREFIX = "mcp__";
const RULE_NAME = /^mcp__[A-Za-z0-9_-]+$/;

export const isMcpToolName = (name: string): boolean => name.startsWith(MCP_PREFIX);

/** An MCP rule (its own grammar, not `Tool(pattern)`); null when `source` is no MCP rule, else an error or "". */
export function mcpRuleProblem(source: string): string | null {
  const text = source.trim();
  if (!text.startsWith(MCP_PREFIX)) return null;
  if (RULE_NAME.test(text)) return "";
  return `invalid permission rule "${source}": expected mcp__<server> or mcp__<server>__<tool>`;
}

/** Whether the MCP rule `rule` names the tool `tool` (its server's, or the tool itself). */
export function mcpRuleCovers(rule: string, tool: string): boolean {
  const text = rule.trim();
  return text === tool || tool.startsWith(`${text}__`);
}

export interface McpRuleInput {
  mode: string;
  allow: readonly string[];
  deny: readonly string[];
  granted: readonly string[];
}

export function decideMcp(policy: McpRuleInput, tool: string): Decision {
  const denied = policy.deny.find((r) => mcpRuleCovers(r, tool));
  if (denied) return { kind: "deny", reason: `the rule ${denied.trim()} forbids ${tool}` };
  if (policy.mode === "bypass") return { kind: "allow" };
  if ([...policy.allow, ...policy.granted].some((r) => mcpRuleCovers(r, tool))) return { kind: "allow" };
  return { kind: "ask", reason: `${tool} is a tool of an MCP server`, rule: tool };
}
