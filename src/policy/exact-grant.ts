// "Don't ask again" in the approval prompt grants an allow rule for the rest of the session. It is
// offered only for a rule that covers the very call the user is looking at and nothing wider:
// no `*` word, no glob, not a bare tool name, and one that really lets this call through (a rule
// for one part of a pipeline, or one the workspace boundary overrides, would still ask).

import { isMcpToolName, mcpRuleProblem } from "./mcp-rules.ts";
import { decide, type PermissionPolicy, type ToolCallRequest } from "./policy.ts";
import { parseRule, RuleError } from "./rule.ts";

const GLOB_CHARS = /[*?[\]{}]/;

/** The rule names one command word for word, one path with no pattern in it, or one MCP tool. */
export function ruleIsExact(source: string): boolean {
  // An MCP rule is exact when it names a tool, not only a server: the rule asked for is the tool's name.
  if (isMcpToolName(source.trim())) return mcpRuleProblem(source) === "" && source.trim().split("__").length > 2;
  try {
    const rule = parseRule(source);
    if (rule.kind === "command") return rule.words.length > 0 && !rule.words.some((w) => w.includes("*"));
    if (rule.kind === "path") return !GLOB_CHARS.test(rule.glob);
    return false;
  } catch (err) {
    if (err instanceof RuleError) return false;
    throw err;
  }
}

/** Granting `rule` would let exactly this call through: offer "don't ask again" for it. */
export function grantIsExact(
  policy: PermissionPolicy,
  call: ToolCallRequest,
  granted: readonly string[],
  rule: string,
): boolean {
  return ruleIsExact(rule) && decide(policy, call, [...granted, rule]).kind === "allow";
}
