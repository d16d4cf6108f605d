// The decision for one Bash call: deny rules, then the dangerous list, secrets and settings files,
// the workspace boundary (the folder it runs in, `cd`, redirections, writers; no allow rule waives
// it), allow rules, and then — with no OS sandbox — the proof that the command is harmless.

import { type CommandView, viewCommands } from "./command-view.ts";
import { leavesFor } from "./cd-target.ts";
import { dangerousReason } from "./dangerous.ts";
import { homeExpanded, resolveInput, wordPath } from "./input-paths.ts";
import type { Decision, PermissionPolicy, ToolCallRequest } from "./policy-types.ts";
import { rootsOf, rules } from "./policy-cache.ts";
import { fileFragments, protectedIn, settingsKind, sharedFile } from "./protected-paths.ts";
import { matchWords, type Rule, ruleCoversTool } from "./rule.ts";
import { parseShell } from "./shell-parse.ts";
import { bashAllowed, commandRuleFor, denyMatches, namesExactly, ruleMatchesCommand } from "./rule-match.ts";
import { unprovenPart } from "./safe-command.ts";
import { hardLinks, insideWorkspace } from "./workspace.ts";
import { writeTargets } from "./write-targets.ts";
import { itemAt } from "../text/checked-index.ts";

const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** `deny` and `allow` are the policy's rules, parsed (`allow` with the rules granted this session). */
export function decideBash(
  policy: PermissionPolicy,
  call: ToolCallRequest,
  input: Record<string, unknown>,
  deny: Rule[],
  allow: Rule[],
): Decision {
  const { home } = policy;
  const command = typeof input.command === "string" ? input.command : "";
  if (TASK_COMMAND.test(command)) return decideTask(policy, command, deny);
  const parsed = viewCommands(command);
  const views = parsed.ok ? parsed.commands : [];
  const denied = deny.find((r) =>
    r.kind === "any" ? ruleCoversTool(r, "Bash") : views.some((v) => denyMatches(r, v)),
  );
  if (denied) return { kind: "deny", reason: `the rule ${denied.source} forbids this command` };
  if (policy.mode === "bypass" && !policy.readOnly) return { kind: "allow" };
  if (policy.mode === "plan" || policy.readOnly)
    return { kind: "deny", reason: "this agent is read-only: commands cannot run" };
  const everything = allow.some((r) => r.kind === "any" && ruleCoversTool(r, "Bash"));
  if (!parsed.ok) {
    if (everything) return { kind: "allow" };
    const danger = dangerousReason(command, []);
    const reason = danger
      ? `the command is on the dangerous list: ${danger.why}`
      : `the command could not be checked (${parsed.error})`;
    return { kind: "ask", reason, rule: "Bash", dangerous: danger !== null };
  }
  const cwd = typeof input.cwd === "string" && input.cwd.trim() ? resolveInput(call.cwd, input.cwd, home) : call.cwd;
  const marked = markedPart(policy, command, views, allow, cwd);
  if (marked) return marked;
  // The bare `Bash` rule is the user's word that every command may run (deny rules still apply).
  if (everything) return { kind: "allow" };
  const roots = rootsOf(policy);
  const firstUnallowed = views.find((v) => !allow.some((r) => ruleMatchesCommand(r, v, false))) ?? views[0];
  const rule = firstUnallowed ? commandRuleFor(firstUnallowed) : "Bash";
  // In the OS sandbox the kernel holds the boundary for files; outside it, no allow rule waives it.
  // A `cd` out of the workspace asks either way: later parts (`rm -rf project`) would be judged
  // against the wrong folder, and the sandbox leaves the workspace itself writable.
  const crossing = boundaryCrossing(views, allow, cwd, home, roots, policy.sandboxed);
  if (crossing) return crossing;
  if (!policy.sandboxed && !insideWorkspace(cwd, roots))
    return { kind: "ask", reason: `the command would run in ${cwd}, outside the workspace`, rule };
  if (bashAllowed(views, allow)) return { kind: "allow" };
  if (policy.mode === "default" && policy.sandboxed) return { kind: "allow" };
  const unallowed = views.filter((v) => !allow.some((r) => ruleMatchesCommand(r, v, false)));
  const proof = unprovenPart(unallowed, { cwd, home, roots, ownDirs: policy.ownDirs, searchPath: policy.searchPath });
  if (!proof) return { kind: "allow" };
  // A project's own rules were written by whoever wrote the repository: they only count where
  // the sandbox holds what the command can reach, never past what sandboxed `default` runs.
  if (policy.sandboxed && bashAllowed(views, [...allow, ...rules(policy.projectAllow ?? [])])) return { kind: "allow" };
  const reason =
    policy.mode === "accept-edits"
      ? `in accept-edits mode only commands proven harmless or named by an allow rule run (${proof.why})`
      : `without an OS sandbox only commands proven harmless run unasked (${proof.why})`;
  return { kind: "ask", reason, rule: commandRuleFor(proof.view) };
}

/** `task:explore …` / `task:general …`: a sub-agent, not a shell; its own calls meet this policy. */
const TASK_COMMAND = /^\s*task:/;

function decideTask(policy: PermissionPolicy, command: string, deny: Rule[]): Decision {
  const parsed = parseShell(command);
  const words = parsed.ok && parsed.commands.length === 1 ? itemAt(parsed.commands, 0).words : null;
  const name = command.trim().split(/\s/)[0] ?? "";
  const denied = deny.find((r) => {
    if (r.kind === "any") return ruleCoversTool(r, "Bash");
    if (r.kind !== "command") return false;
    // A prompt the parser cannot read is still denied by a rule that names its kind.
    return words
      ? matchWords(r.words, words)
      : matchWords(r.words.slice(0, 1), [{ text: name, raw: name, dynamic: false }]);
  });
  if (denied) return { kind: "deny", reason: `the rule ${denied.source} forbids this command` };
  if (policy.mode === "plan" || policy.readOnly)
    return { kind: "deny", reason: "this agent is read-only: it cannot start sub-agents" };
  return { kind: "allow" };
}

/**
 * The dangerous list, protected files and settings files: these ask whatever the mode or the
 * sandbox, unless a rule names the part word for word.
 */
function markedPart(
  policy: PermissionPolicy,
  command: string,
  views: CommandView[],
  allow: Rule[],
  cwd: string,
): Decision | null {
  const { home } = policy;
  // `Bash(git *)` was not meant for `git -c core.pager=…`, nor `Bash(rm *)` for `rm -rf ~`.
  const unnamed = views.filter((v) => !allow.some((r) => namesExactly(r, v)));
  const dotglob = /\b(dotglob|GLOBIGNORE)\b/.test(command);
  const danger = unnamed.length ? dangerousReason(command, unnamed, { cwd, home }) : null;
  if (danger)
    return {
      kind: "ask",
      reason: `the command is on the dangerous list: ${danger.why}`,
      rule: danger.view ? commandRuleFor(danger.view) : "Bash",
      dangerous: true,
    };
  // No rule names a redirection: `Bash(cat README.md)` names the words, not `> .git/config`, so
  // a redirection to a protected file passes only by the bare `Bash` rule.
  const everything = allow.some((r) => r.kind === "any" && ruleCoversTool(r, "Bash"));
  const checked = new Set<string>();
  for (const v of views) {
    const named = !unnamed.includes(v);
    if (named && everything) continue;
    const words = named ? [] : v.words.slice(1).map((w) => ({ w, rule: commandRuleFor(v) }));
    for (const { w: word, rule } of [...words, ...v.redirects.map((r) => ({ w: r.target, rule: "Bash" }))]) {
      for (const w of fileFragments(word)) {
        if (checked.has(`${rule}\0${w.text}`)) continue;
        checked.add(`${rule}\0${w.text}`);
        const touched = protectedIn(w, cwd, home, dotglob, policy.ownDirs);
        if (touched)
          return { kind: "ask", reason: `the command touches ${touched}, a secrets file or synapse's own`, rule };
        const text = w.dynamic ? null : w.text;
        const settings = text ? settingsKind(wordPath(text, cwd, home)) : null;
        if (settings) return { kind: "ask", reason: `the command touches ${w.raw}, ${settings}`, rule };
      }
    }
  }
  return null;
}

/** A `cd` out of the workspace, or a write to a file outside it or shared through a hard link. */
function boundaryCrossing(
  views: CommandView[],
  allow: Rule[],
  cwd: string,
  home: string,
  roots: string[],
  sandboxed: boolean,
): Decision | null {
  for (const v of views) {
    const named = allow.some((r) => namesExactly(r, v));
    // Later parts would run (and resolve their paths) in the folder a `cd` leaves for.
    const away = named ? null : leavesFor(v, cwd, home, roots);
    if (away)
      return { kind: "ask", reason: `the command changes to ${away}, outside the workspace`, rule: commandRuleFor(v) };
    if (sandboxed) continue;
    for (const r of v.redirects) {
      // `>& file` writes both streams to the file; only `>&2`, `>&-` duplicate or close a descriptor.
      if (!/>/.test(r.op) || (!r.target.dynamic && /^\d+-?$|^-$/.test(r.target.text))) continue;
      const text = homeExpanded(r.target, home);
      if (text === null)
        return {
          kind: "ask",
          reason: `the command writes to ${r.target.raw}, a file known only when it runs`,
          rule: "Bash",
        };
      const target = wordPath(text, cwd, home);
      // No rule names a redirection: only the bare `Bash` rule lets one out of the workspace.
      if (!HARMLESS_TARGETS.test(target) && !insideWorkspace(target, roots)) {
        return { kind: "ask", reason: `the command writes to ${target}, outside the workspace`, rule: "Bash" };
      }
      if (hardLinks(target) > 1) return { kind: "ask", reason: sharedFile(target), rule: "Bash" };
    }
    if (named) continue;
    // Files named as arguments of a well-known writer (`cp x ~/.bashrc`, `tee /etc/hosts`).
    for (const w of writeTargets(v.words)) {
      const text = homeExpanded(w, home);
      if (text === null)
        return {
          kind: "ask",
          reason: `the command writes to ${w.raw}, a file known only when it runs`,
          rule: commandRuleFor(v),
        };
      const target = wordPath(text, cwd, home);
      if (!HARMLESS_TARGETS.test(target) && !insideWorkspace(target, roots)) {
        return {
          kind: "ask",
          reason: `the command writes to ${target}, outside the workspace`,
          rule: commandRuleFor(v),
        };
      }
      if (hardLinks(target) > 1) return { kind: "ask", reason: sharedFile(target), rule: commandRuleFor(v) };
    }
  }
  return null;
}
