// The decision for one Bash call: deny rules, then the dangerous list, secrets and settings files,
// allow rules, and the workspace boundary (the folder it runs in, `cd`, redirections, writers).

import { viewCommands } from "./command-view.ts";
import { leavesFor } from "./cd-target.ts";
import { dangerousReason } from "./dangerous.ts";
import { homeExpanded, resolveInput, wordPath } from "./input-paths.ts";
import type { Decision, PermissionPolicy, ToolCallRequest } from "./policy.ts";
import { rootsOf, rules } from "./policy-cache.ts";
import { protectedIn, settingsKind, sharedFile } from "./protected-paths.ts";
import { type Rule, ruleCoversTool } from "./rule.ts";
import { bashAllowed, commandRuleFor, namesExactly, ruleMatchesCommand } from "./rule-match.ts";
import { hardLinks, insideWorkspace } from "./workspace.ts";
import { writeTargets } from "./write-targets.ts";

const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** `deny` and `allow` are the policy's rules, parsed (`allow` with the rules granted this session). */
export function decideBash(policy: PermissionPolicy, call: ToolCallRequest, input: Record<string, unknown>, deny: Rule[], allow: Rule[]): Decision {
  const { home } = policy;
  const command = typeof input.command === "string" ? input.command : "";
  const parsed = viewCommands(command);
  const views = parsed.ok ? parsed.commands : [];
  const denied = deny.find((r) => r.kind === "any" ? ruleCoversTool(r, "Bash") : views.some((v) => ruleMatchesCommand(r, v, true)));
  if (denied) return { kind: "deny", reason: `the rule ${denied.source} forbids this command` };
  if (policy.mode === "bypass" && !policy.readOnly) return { kind: "allow" };
  if (policy.mode === "plan" || policy.readOnly) return { kind: "deny", reason: "this agent is read-only: commands cannot run" };
  if (!parsed.ok) {
    if (allow.some((r) => r.kind === "any" && ruleCoversTool(r, "Bash"))) return { kind: "allow" };
    const danger = dangerousReason(command, []);
    const reason = danger ? `the command is on the dangerous list: ${danger.why}` : `the command could not be checked (${parsed.error})`;
    return { kind: "ask", reason, rule: "Bash", dangerous: danger !== null };
  }
  const cwd = typeof input.cwd === "string" && input.cwd.trim() ? resolveInput(call.cwd, input.cwd, home) : call.cwd;
  // A dangerous part, or one naming a secret or settings file, passes only by a rule that names
  // it word for word (or the bare `Bash` rule): `Bash(git *)` was not meant for `git -c core.pager=…`,
  // nor `Bash(rm *)` for `rm -rf ~`.
  const unnamed = views.filter((v) => !allow.some((r) => namesExactly(r, v)));
  const dotglob = /\b(dotglob|GLOBIGNORE)\b/.test(command);
  const danger = unnamed.length ? dangerousReason(command, unnamed, { cwd, home }) : null;
  if (danger) return { kind: "ask", reason: `the command is on the dangerous list: ${danger.why}`, rule: danger.view ? commandRuleFor(danger.view) : "Bash", dangerous: true };
  const checked = new Set<string>();
  for (const v of unnamed) {
    for (const w of [...v.words.slice(1), ...v.redirects.map((r) => r.target)]) {
      if (checked.has(w.raw)) continue;
      checked.add(w.raw);
      const touched = protectedIn(w, cwd, home, dotglob);
      if (touched) return { kind: "ask", reason: `the command touches ${touched}, a secrets file`, rule: commandRuleFor(v) };
      const text = w.dynamic ? null : w.text;
      const settings = text ? settingsKind(wordPath(text, cwd, home)) : null;
      if (settings) return { kind: "ask", reason: `the command touches ${w.raw}, ${settings}`, rule: commandRuleFor(v) };
    }
  }
  if (bashAllowed(views, allow)) return { kind: "allow" };
  const firstUnallowed = views.find((v) => !allow.some((r) => ruleMatchesCommand(r, v, false))) ?? views[0];
  const rule = firstUnallowed ? commandRuleFor(firstUnallowed) : "Bash";
  const roots = rootsOf(policy);
  if (!insideWorkspace(cwd, roots)) return { kind: "ask", reason: `the command would run in ${cwd}, outside the workspace`, rule };
  for (const v of views) {
    // Later parts would run (and resolve their paths) in the folder a `cd` leaves for.
    const away = allow.some((r) => ruleMatchesCommand(r, v, false)) ? null : leavesFor(v, cwd, home, roots);
    if (away) return { kind: "ask", reason: `the command changes to ${away}, outside the workspace`, rule: commandRuleFor(v) };
    for (const r of v.redirects) {
      // `>& file` writes both streams to the file; only `>&2`, `>&-` duplicate or close a descriptor.
      if (!/>/.test(r.op) || r.target.dynamic || /^\d+-?$|^-$/.test(r.target.text)) continue;
      const target = wordPath(r.target.text, cwd, home);
      if (!HARMLESS_TARGETS.test(target) && !insideWorkspace(target, roots)) {
        return { kind: "ask", reason: `the command writes to ${target}, outside the workspace`, rule: commandRuleFor(v) };
      }
      if (hardLinks(target) > 1) return { kind: "ask", reason: sharedFile(target), rule: commandRuleFor(v) };
    }
    // Files named as arguments of a well-known writer (`cp x ~/.bashrc`, `tee /etc/hosts`).
    for (const w of writeTargets(v.words)) {
      const text = homeExpanded(w, home);
      if (!text) continue;
      const target = wordPath(text, cwd, home);
      if (!HARMLESS_TARGETS.test(target) && !insideWorkspace(target, roots)) {
        return { kind: "ask", reason: `the command writes to ${target}, outside the workspace`, rule: commandRuleFor(v) };
      }
      if (hardLinks(target) > 1) return { kind: "ask", reason: sharedFile(target), rule: commandRuleFor(v) };
    }
  }
  if (policy.mode === "accept-edits" && !bashAllowed(views, [...allow, ...rules(policy.projectAllow ?? [])])) {
    return { kind: "ask", reason: "in accept-edits mode only commands an allow rule names may run", rule };
  }
  return { kind: "allow" };
}
