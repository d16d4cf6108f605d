// The parsed rules and the workspace's real paths, kept across calls so each is worked out once.

import type { PermissionPolicy } from "./policy-types.ts";
import { mcpRuleProblem } from "./mcp-rules.ts";
import { parseRule, type Rule } from "./rule.ts";
import { workspaceRoots } from "./workspace.ts";

/** Each rule source parsed once (every call checks every rule). */
const parsedRules = new Map<string, Rule>();
export function rules(sources: readonly string[]): Rule[] {
  // MCP rules (mcp-rules.ts) have a grammar of their own and name no built-in tool.
  return sources
    .filter((s) => mcpRuleProblem(s) === null)
    .map((s) => {
      let r = parsedRules.get(s);
      if (!r) {
        r = parseRule(s);
        parsedRules.set(s, r);
      }
      return r;
    });
}

/** The workspace's real paths, resolved once per policy (a realpath per root per call adds up). */
const rootsCache = new WeakMap<PermissionPolicy, string[]>();
export function rootsOf(policy: PermissionPolicy): string[] {
  let roots = rootsCache.get(policy);
  if (!roots) {
    roots = workspaceRoots(policy.workspace);
    rootsCache.set(policy, roots);
  }
  return roots;
}
