// The tools a deny list refuses every call of, so that they are not offered to the model at all (it
// could only ever be refused, and would spend turns finding out). A rule without a pattern (`Write`,
// `Write(*)`, `write(**)`) and the tools it covers as the gate judges them (`Write` and `Edit` rules
// cover both, `Read` rules Grep and Glob); an MCP rule its server's tools (`mcp__server`) or one tool.
// A rule with a pattern (`Write(src/**)`) leaves the tool offered; an invalid rule is left for
// build-policy.ts to report.

import { mcpRuleCovers, mcpRuleProblem } from "./mcp-rules.ts";
import { type Rule, RULE_TOOLS, parseRule, ruleCoversTool } from "./rule.ts";

function wholeToolRule(source: string): Rule | undefined {
  try {
    const rule = parseRule(source);
    return rule.kind === "any" ? rule : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `deny` refuses every call of the tool `name` (a built-in tool or `mcp__server__tool`). */
export function deniesWholeTool(deny: readonly string[], name: string): boolean {
  return deny.some((source) => {
    const mcpProblem = mcpRuleProblem(source);
    if (mcpProblem !== null) return mcpProblem === "" && mcpRuleCovers(source, name);
    const rule = wholeToolRule(source);
    return rule !== undefined && (RULE_TOOLS as readonly string[]).includes(name) && ruleCoversTool(rule, name);
  });
}
