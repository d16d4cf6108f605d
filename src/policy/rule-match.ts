// Whether a rule matches a command or a path, and the rule that would name a command.

import type { CommandView } from "./command-view.ts";
import type { PermissionPolicy } from "./policy-types.ts";
import { matchPath, matchWords, type Rule, ruleCoversTool } from "./rule.ts";
import type { Word } from "./shell-parse.ts";
import { realPathOf } from "./workspace.ts";
import { itemAt } from "../text/checked-index.ts";

/** The rule that names this command; `*` stands for each word known only when it runs. */
export function commandRuleFor(view: CommandView): string {
  const words = [...view.assignments, ...view.words].map((w) => (w.dynamic ? "*" : w.raw));
  return `Bash(${words.join(" ")})`;
}

/** Every part of the command line is matched by some allow rule. */
export function bashAllowed(views: CommandView[], allow: Rule[]): boolean {
  return views.every((v) => allow.some((r) => ruleMatchesCommand(r, v, false)));
}

/** The bare `Bash` rule, or a command rule whose `*` words take only words known when it runs. */
export function namesExactly(rule: Rule, view: CommandView): boolean {
  if (rule.kind === "any") return ruleCoversTool(rule, "Bash");
  return rule.kind === "command" && matchWords(rule.words, [...view.assignments, ...view.words], true);
}

export function ruleMatchesCommand(rule: Rule, view: CommandView, forDeny: boolean): boolean {
  if (!ruleCoversTool(rule, "Bash")) return false;
  if (rule.kind === "any") return true;
  if (rule.kind !== "command") return false;
  // A deny rule also catches the command without its `NAME=value` prefix.
  if (matchWords(rule.words, [...view.assignments, ...view.words])) return true;
  return forDeny && view.assignments.length > 0 && matchWords(rule.words, view.words);
}

/**
 * A deny rule names the program however it is called: `/usr/bin/git push`, `git -C . push`,
 * `time -p git push` (the parser drops `time`, leaving its options). Wrappers (`env`, `command`,
 * `nice`, `sudo` …) are seen through by command-view.ts already.
 */
export function denyMatches(rule: Rule, view: CommandView): boolean {
  if (ruleMatchesCommand(rule, view, true)) return true;
  if (rule.kind !== "command" || !ruleCoversTool(rule, "Bash")) return false;
  const plain = plainForm(view.words);
  return plain !== null && matchWords(rule.words, plain);
}

/** Git's options before its subcommand, and which of them take the next word as their value. */
const GIT_GLOBAL_WITH_VALUE = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
  "--super-prefix",
  "--attr-source",
]);

/** The words with leading options dropped, the program by its base name, git's global options out. */
function plainForm(words: Word[]): Word[] | null {
  let i = 0;
  while (i < words.length && itemAt(words, i).text.startsWith("-")) i++;
  if (i >= words.length) return null;
  const name = itemAt(words, i).text.replace(/^.*\//, "");
  const rest = words.slice(i + 1);
  const out: Word[] = [{ ...itemAt(words, i), text: name }];
  let k = 0;
  if (name === "git") {
    while (k < rest.length && itemAt(rest, k).text.startsWith("-")) {
      k += GIT_GLOBAL_WITH_VALUE.has(itemAt(rest, k).text) ? 2 : 1;
    }
  }
  return [...out, ...rest.slice(k)];
}

export function pathRuleMatches(rule: Rule, tool: string, path: string, policy: PermissionPolicy): boolean {
  if (!ruleCoversTool(rule, tool)) return false;
  if (rule.kind === "any") return true;
  if (rule.kind !== "path") return false;
  const base = itemAt(policy.workspace, 0);
  return matchPath(rule.glob, path, base, policy.home) || matchPath(rule.glob, realPathOf(path), base, policy.home);
}
