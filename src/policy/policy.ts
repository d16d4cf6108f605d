// The permission policy: a plain value built once from Config (build-policy.ts: it can cross into
// a worker thread), and the pure decision for one tool call: allow, deny with a reason, or ask.

import { resolve } from "node:path";
import { decideBash } from "./bash-decision.ts";
import { targetPath } from "./input-paths.ts";
import { decideMcp, isMcpToolName } from "./mcp-rules.ts";
import { rootsOf, rules } from "./policy-cache.ts";
import { isProtectedPath, settingsKind, sharedFile } from "./protected-paths.ts";
import { pathRuleMatches } from "./rule-match.ts";
import { hardLinks, insideWorkspace } from "./workspace.ts";
import { itemAt } from "../text/checked-index.ts";
import type { Decision, PermissionPolicy, ToolCallRequest } from "./policy-types.ts";

export { isProtectedPath } from "./protected-paths.ts";
export { buildPolicy, type PolicyOptions, type PolicySource, policyForSubAgent } from "./build-policy.ts";
export { redactEvent, redactSecrets } from "./secret-redaction.ts";
export type { Decision, PermissionPolicy, ToolCallRequest } from "./policy-types.ts";

const READ_TOOLS = new Set(["Read", "Glob", "Grep"]);
const EDIT_TOOLS = new Set(["Write", "Edit"]);

/**
 * The decision for one call. `granted` holds rules the user allowed for this session in an
 * interactive prompt. Deny rules win over everything, bypass allows the rest.
 */
export function decide(policy: PermissionPolicy, call: ToolCallRequest, granted: readonly string[] = []): Decision {
  if (isMcpToolName(call.tool)) return decideMcp({ ...policy, granted }, call.tool);
  const input = (call.input && typeof call.input === "object" ? call.input : {}) as Record<string, unknown>;
  const deny = rules(policy.deny);
  const allow = [...rules(policy.allow), ...rules(granted)];
  const { home } = policy;

  if (call.tool === "Bash") return decideBash(policy, call, input, deny, allow);

  if (READ_TOOLS.has(call.tool) || EDIT_TOOLS.has(call.tool)) {
    const path = targetPath(call.tool, input, call.cwd, home);
    const denied = deny.find((r) => pathRuleMatches(r, call.tool, path, policy));
    if (denied) return { kind: "deny", reason: `the rule ${denied.source} forbids ${path}` };
    const editing = EDIT_TOOLS.has(call.tool);
    if (editing && (policy.mode === "plan" || policy.readOnly))
      return { kind: "deny", reason: "this agent is read-only: files cannot be changed" };
    if (policy.mode === "bypass") return { kind: "allow" };
    if (allow.some((r) => pathRuleMatches(r, call.tool, path, policy))) return { kind: "allow" };
    const ruleTool = editing ? call.tool : "Read";
    const rule = `${ruleTool}(${path})`;
    if (isProtectedPath(path, home, policy.ownDirs)) {
      return {
        kind: "ask",
        reason:
          `${path} may hold secrets (.env files, ~/.ssh and the other credential stores of home, ` +
          "synapse's own config and sessions are protected)",
        rule,
      };
    }
    if (!insideWorkspace(path, rootsOf(policy))) {
      return { kind: "ask", reason: `${path} is outside the workspace (${policy.workspace.join(", ")})`, rule };
    }
    if (editing && hardLinks(path) > 1) return { kind: "ask", reason: sharedFile(path), rule };
    const settings = editing ? settingsKind(path) : null;
    if (settings) return { kind: "ask", reason: `${path} is ${settings}`, rule };
    return { kind: "allow" };
  }

  // Tools no rule grammar names yet (sub-agent launchers, future tools): deny rules by name only.
  const denied = deny.find((r) => r.kind === "any" && r.tool === call.tool);
  if (denied) return { kind: "deny", reason: `the rule ${denied.source} forbids ${call.tool}` };
  return { kind: "allow" };
}

/**
 * Every path a Grep or Glob output line may begin with. Its separators are ambiguous (`path:3:text`,
 * a context line's `path-3-text`, a count's `path:3`, a bare path), and folder names may contain
 * them (`notes-2024-01/.env`): a line is judged by all its readings, so no reading can hide a
 * protected file behind an innocent one.
 */
export function linePaths(line: string): string[] {
  const paths = [...line.matchAll(/:\d+[:-]|-\d+-|:\d+$/g)]
    .filter((m) => m.index > 0)
    .map((m) => line.slice(0, m.index));
  if (line) paths.push(line);
  return paths;
}

/**
 * Lines of Glob or Grep output that name a file a deny rule covers (in every mode, as the rule
 * forbids Read of it), or a protected file no allow rule names: a search must not read out what
 * Read may not.
 */
export function hideProtectedLines(
  policy: PermissionPolicy,
  tool: string,
  text: string,
  granted: readonly string[] = [],
): { text: string; hidden: number } {
  const allow = [...rules(policy.allow), ...rules(granted)];
  const deny = rules(policy.deny);
  let hidden = 0;
  let deniedLines = 0;
  const kept = text.split("\n").filter((line) => {
    const paths = linePaths(line).map((shown) => resolve(itemAt(policy.workspace, 0), shown));
    if (paths.some((path) => deny.some((r) => pathRuleMatches(r, tool, path, policy)))) {
      deniedLines++;
      return false;
    }
    if (policy.mode === "bypass") return true;
    const isHidden = (path: string) =>
      isProtectedPath(path, policy.home, policy.ownDirs) && !allow.some((r) => pathRuleMatches(r, tool, path, policy));
    if (!paths.some(isHidden)) return true;
    hidden++;
    return false;
  });
  if (!hidden && !deniedLines) return { text, hidden: 0 };
  const notes: string[] = [];
  const lines = (n: number) => `${n} line${n === 1 ? "" : "s"}`;
  if (deniedLines) notes.push(`(${lines(deniedLines)} left out: a deny rule forbids reading those files)`);
  if (hidden)
    notes.push(`(${lines(hidden)} from .env or ~/.ssh files hidden; an allow rule such as Read(**/.env) shows them)`);
  return { text: `${kept.join("\n")}\n${notes.join("\n")}`, hidden: hidden + deniedLines };
}
