// The permission policy: a plain value built once from Config (it can cross into a worker
// thread), and the pure decision for one tool call: allow, deny with a reason, or ask.

import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { PermissionMode } from "../../config/config.ts";
import { UsageError } from "../../protocol/errors.ts";
import { commandText, type CommandView, viewCommands } from "./command-view.ts";
import { dangerousReason } from "./dangerous.ts";
import { globRegExp, matchPath, matchWords, parseRule, type Rule, RuleError, ruleCoversTool } from "./rule.ts";
import type { Word } from "./shell-parse.ts";
import { hardLinks, insideWorkspace, realPathOf, workspaceRoots } from "./workspace.ts";
import { writeTargets } from "./write-targets.ts";

export interface PermissionPolicy {
  mode: PermissionMode;
  /** Rule sources, already checked. */
  allow: string[];
  deny: string[];
  /**
   * Allow rules from the project's own config: a cloned repository wrote them, so they only name
   * commands accept-edits may run; they never pass the dangerous list, the boundary or a secret.
   */
  projectAllow?: string[];
  /** The working directory first, then the `--add-dir` folders (absolute). */
  workspace: string[];
  home: string;
  /** Set for `task:explore` sub-agents: read-only whatever the mode. */
  readOnly?: boolean;
  /** Values never shown to the model or written anywhere (provider keys, named secrets). */
  secrets: string[];
}

export type Decision =
  | { kind: "allow" }
  | { kind: "deny"; reason: string }
  /** `rule` is the allow rule that would let this call through. */
  | { kind: "ask"; reason: string; rule: string; dangerous?: boolean };

export interface PolicySource {
  cwd: string;
  permissionMode: PermissionMode;
  permissions: { allow: readonly string[]; deny: readonly string[]; projectAllow?: readonly string[] };
  addDirs: readonly string[];
  secrets: readonly string[];
}

/** Checks every rule (an invalid one is a configuration error naming it) and builds the policy. */
export function buildPolicy(config: PolicySource, home: string = homedir()): PermissionPolicy {
  for (const source of [...config.permissions.allow, ...config.permissions.deny, ...(config.permissions.projectAllow ?? [])]) {
    try {
      parseRule(source);
    } catch (err) {
      if (err instanceof RuleError) throw new UsageError(err.message);
      throw err;
    }
  }
  return {
    mode: config.permissionMode,
    allow: [...config.permissions.allow],
    deny: [...config.permissions.deny],
    projectAllow: [...(config.permissions.projectAllow ?? [])],
    workspace: [config.cwd, ...config.addDirs.map((d) => resolve(config.cwd, d))],
    home,
    secrets: [...config.secrets],
  };
}

/** What a sub-agent of this kind runs under: the parent's policy, read-only for `explore`. */
export function policyForSubAgent(policy: PermissionPolicy, kind: "explore" | "general"): PermissionPolicy {
  return kind === "explore" ? { ...policy, readOnly: true } : policy;
}

const parsedRules = new Map<string, Rule>();
function rules(sources: readonly string[]): Rule[] {
  return sources.map((s) => {
    let r = parsedRules.get(s);
    if (!r) parsedRules.set(s, (r = parseRule(s)));
    return r;
  });
}

/** The workspace's real paths, resolved once per policy (a realpath per root per call adds up). */
const rootsCache = new WeakMap<PermissionPolicy, string[]>();
function rootsOf(policy: PermissionPolicy): string[] {
  let roots = rootsCache.get(policy);
  if (!roots) rootsCache.set(policy, (roots = workspaceRoots(policy.workspace)));
  return roots;
}

const READ_TOOLS = new Set(["Read", "Glob", "Grep"]);
const EDIT_TOOLS = new Set(["Write", "Edit"]);
const TEMPLATE_ENV = /^\.env\.(example|sample|template|dist|defaults)$/;
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/**
 * The credential stores in the home folder: a command may read outside the workspace
 * (`cat ~/.aws/credentials` would go to the model), so these are protected like `~/.ssh`.
 */
const HOME_SECRETS = [".ssh", ".aws", ".gnupg", ".netrc", ".git-credentials", ".npmrc", ".pypirc", ".docker/config.json", ".kube", ".config/gh", ".config/gcloud", ".azure"];

/** `.env`, `.env.local` … (templates excepted), `~/.ssh` and the other credential stores of home. */
export function isProtectedPath(path: string, home: string): boolean {
  const h = home.replace(/\/$/, "");
  // Also through a link: `notes -> .env` is the same file.
  return [path, realPathOf(path)].some((p) => {
    const name = basename(p);
    if (/^\.env(\..+)?$/.test(name) && !TEMPLATE_ENV.test(name)) return true;
    return HOME_SECRETS.some((s) => p === `${h}/${s}` || p.startsWith(`${h}/${s}/`));
  });
}

/** What a shell word names as a path, when it could be one. */
function wordPath(text: string, cwd: string, home: string): string {
  const t = text.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, "~");
  if (t === "~" || t.startsWith("~/")) return home + t.slice(1);
  return isAbsolute(t) ? resolve(t) : resolve(cwd, t);
}

/**
 * Files that make later, allowed commands run something else, so changing them is the user's call:
 * `.synapse/…` (a project's config could widen what the next run's accept-edits allows) and git's
 * `config` and `hooks/` (`core.fsmonitor`, `core.pager` or a hook run by a plain `git status`).
 */
function settingsKind(path: string): string | null {
  for (const p of new Set([path, realPathOf(path)])) {
    if (/(^|\/)\.synapse(\/|$)/.test(p)) return "synapse's own settings";
    if (/(^|\/)\.git\/(config$|hooks(\/|$))/.test(p)) return "git's config or hooks (commands later git calls run)";
  }
  return null;
}

function sharedFile(path: string): string {
  return `${path} has other hard links, which may be outside the workspace (writing it changes them all)`;
}

/** `cd DIR` / `pushd DIR` to a folder outside the workspace (or one only known when it runs). */
function leavesFor(view: CommandView, cwd: string, home: string, roots: string[]): string | null {
  const name = view.words[0]?.text;
  if (name !== "cd" && name !== "pushd") return null;
  const operands = view.words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.text) && w.text !== "--");
  if (name === "pushd" && !operands.length) return "the folder on top of the stack";
  const target = operands[0];
  if (!target) return home;
  if (target.text === "-") return "the previous folder";
  if (GIT_TOPLEVEL.test(target.raw)) {
    const top = gitTopLevel(cwd);
    return top && insideWorkspace(top, roots) ? null : target.raw;
  }
  const text = homeExpanded(target, home);
  if (text === null) return target.raw;
  const path = wordPath(text, cwd, home);
  return insideWorkspace(path, roots) ? null : path;
}

/** `cd "$(git rev-parse --show-toplevel)"`, a common way to reach the repository's root. */
const GIT_TOPLEVEL = /^"?(\$\(|`)git rev-parse --show-toplevel(\)|`)"?$/;

/** The nearest folder at or above `dir` that holds `.git`, as git would find it. */
function gitTopLevel(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return d;
    if (dirname(d) === d) return null;
  }
}

/** A word's text with a leading `$HOME`/`${HOME}` (also quoted) put in; null when otherwise dynamic. */
function homeExpanded(w: Word, home: string): string | null {
  const text = w.text.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, home);
  return w.dynamic && /[$`]/.test(text) ? null : text;
}

/**
 * The protected file a word names: as written, after `$HOME`, or through a glob bash would expand.
 * A glob can only reach one through a segment that starts with a dot, under the home folder's dot
 * folders, or with `dotglob` (set in the same command; the shell puts options back after each).
 */
function protectedIn(w: Word, cwd: string, home: string, dotglob: boolean): string | null {
  const text = homeExpanded(w, home);
  if (!text) return null;
  const path = wordPath(text, cwd, home);
  if (isProtectedPath(path, home)) return w.raw;
  if (!/[*?[]/.test(text)) return null;
  if (!dotglob && !/(^|\/)\.[^/]*[*?[]/.test(path) && !path.startsWith(`${home.replace(/\/$/, "")}/.`)) return null;
  const hit = expandGlob(path, dotglob).find((p) => isProtectedPath(p, home));
  return hit ? `${w.raw} (${hit})` : null;
}

/** The existing paths a bash glob matches (dot files only by a pattern that starts with a dot), at most 1,000 tried. */
function expandGlob(path: string, dotglob: boolean): string[] {
  const segments = path.split("/").slice(1);
  let found = ["/"];
  let budget = 1000;
  for (const seg of segments) {
    const next: string[] = [];
    const re = /[*?[]/.test(seg) ? globRegExp(seg) : null;
    for (const dir of found) {
      if (!re) {
        next.push(join(dir, seg));
        continue;
      }
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const n of names) {
        if (--budget < 0) return next;
        if ((n.startsWith(".") && !seg.startsWith(".") && !dotglob) || !re.test(n)) continue;
        next.push(join(dir, n));
      }
    }
    found = next;
  }
  return found;
}

function resolveInput(cwd: string, path: string, home: string): string {
  const p = path.trim();
  if (p === "~" || p.startsWith("~/")) return home + p.slice(1);
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/** The file or folder a file tool call touches. */
function targetPath(tool: string, input: Record<string, unknown>, cwd: string, home: string): string {
  const path = typeof input.path === "string" && input.path.trim() ? input.path : ".";
  const base = resolveInput(cwd, path, home);
  if (tool === "Glob" && typeof input.pattern === "string") {
    // The pattern's literal folders say where the search really starts: `/etc/**`, `../x/*.ts`.
    const pattern = input.pattern.trim();
    const segments = pattern.split("/");
    const literal: string[] = [];
    for (const seg of segments.slice(0, -1)) {
      if (/[*?[\]{}]/.test(seg)) break;
      literal.push(seg);
    }
    if (pattern.startsWith("/") || pattern.startsWith("~")) return resolveInput(cwd, literal.join("/") || "/", home);
    if (literal.length) return resolve(base, literal.join("/"));
  }
  return base;
}

/** The rule that names this command; `*` stands for each word known only when it runs. */
function commandRuleFor(view: CommandView): string {
  const words = [...view.assignments, ...view.words].map((w) => (w.dynamic ? "*" : w.raw));
  return `Bash(${words.join(" ")})`;
}

/** Every part of the command line is matched by some allow rule. */
function bashAllowed(views: CommandView[], allow: Rule[]): boolean {
  return views.every((v) => allow.some((r) => ruleMatchesCommand(r, v, false)));
}

/** The bare `Bash` rule, or a command rule whose `*` words take only words known when it runs. */
function namesExactly(rule: Rule, view: CommandView): boolean {
  if (rule.kind === "any") return ruleCoversTool(rule, "Bash");
  return rule.kind === "command" && matchWords(rule.words, [...view.assignments, ...view.words], true);
}

function ruleMatchesCommand(rule: Rule, view: CommandView, forDeny: boolean): boolean {
  if (!ruleCoversTool(rule, "Bash")) return false;
  if (rule.kind === "any") return true;
  if (rule.kind !== "command") return false;
  // A deny rule also catches the command without its `NAME=value` prefix.
  if (matchWords(rule.words, [...view.assignments, ...view.words])) return true;
  return forDeny && view.assignments.length > 0 && matchWords(rule.words, view.words);
}

function pathRuleMatches(rule: Rule, tool: string, path: string, policy: PermissionPolicy): boolean {
  if (!ruleCoversTool(rule, tool)) return false;
  if (rule.kind === "any") return true;
  if (rule.kind !== "path") return false;
  const base = policy.workspace[0]!;
  return matchPath(rule.glob, path, base, policy.home) || matchPath(rule.glob, realPathOf(path), base, policy.home);
}

export interface ToolCallRequest {
  tool: string;
  input: unknown;
  /** The session's working directory. */
  cwd: string;
}

/**
 * The decision for one call. `granted` holds rules the user allowed for this session in an
 * interactive prompt. Deny rules win over everything, bypass allows the rest.
 */
export function decide(policy: PermissionPolicy, call: ToolCallRequest, granted: readonly string[] = []): Decision {
  const input = (call.input && typeof call.input === "object" ? call.input : {}) as Record<string, unknown>;
  const deny = rules(policy.deny);
  const allow = [...rules(policy.allow), ...rules(granted)];
  const { home } = policy;

  if (call.tool === "Bash") {
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

  if (READ_TOOLS.has(call.tool) || EDIT_TOOLS.has(call.tool)) {
    const path = targetPath(call.tool, input, call.cwd, home);
    const denied = deny.find((r) => pathRuleMatches(r, call.tool, path, policy));
    if (denied) return { kind: "deny", reason: `the rule ${denied.source} forbids ${path}` };
    const editing = EDIT_TOOLS.has(call.tool);
    if (editing && (policy.mode === "plan" || policy.readOnly)) return { kind: "deny", reason: "this agent is read-only: files cannot be changed" };
    if (policy.mode === "bypass") return { kind: "allow" };
    if (allow.some((r) => pathRuleMatches(r, call.tool, path, policy))) return { kind: "allow" };
    const ruleTool = editing ? call.tool : "Read";
    const rule = `${ruleTool}(${path})`;
    if (isProtectedPath(path, home)) return { kind: "ask", reason: `${path} may hold secrets (.env files, ~/.ssh and the other credential stores of home are protected)`, rule };
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
 * Lines of Glob or Grep output that name protected files, hidden unless a rule allows them:
 * a search must not read out what Read may not.
 */
export function hideProtectedLines(policy: PermissionPolicy, tool: string, text: string, granted: readonly string[] = []): { text: string; hidden: number } {
  if (policy.mode === "bypass") return { text, hidden: 0 };
  const allow = [...rules(policy.allow), ...rules(granted)];
  let hidden = 0;
  const kept = text.split("\n").filter((line) => {
    const m = /^(.*?)(?::\d+[:-]|-\d+-|:\d+$|$)/.exec(line);
    const shown = m?.[1];
    if (!shown) return true;
    const path = resolve(policy.workspace[0]!, shown);
    if (!isProtectedPath(path, policy.home) || allow.some((r) => pathRuleMatches(r, tool, path, policy))) return true;
    hidden++;
    return false;
  });
  if (!hidden) return { text, hidden };
  return { text: `${kept.join("\n")}\n(${hidden} line${hidden === 1 ? "" : "s"} from .env or ~/.ssh files hidden; an allow rule such as Read(**/.env) shows them)`, hidden };
}

/** Every known secret value replaced, longest first, so no key reaches the model, a file or a log. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) {
    if (s.length >= 8 && out.includes(s)) out = out.split(s).join("[redacted]");
  }
  return out;
}

/** An event with secret values redacted from the text that reports errors (warnings, retries, results). */
export function redactEvent<E extends { type: string }>(event: E, secrets: readonly string[]): E {
  if (!secrets.length) return event;
  const e = event as any;
  if (e.type === "warning") return { ...e, message: redactSecrets(e.message, secrets) };
  if (e.type === "turn_retry") return { ...e, reason: redactSecrets(e.reason, secrets) };
  if (e.type === "result") {
    const result = { ...e.result, result: redactSecrets(e.result.result, secrets) };
    if (typeof e.result.error === "string") result.error = redactSecrets(e.result.error, secrets);
    return { ...e, result };
  }
  return event;
}
