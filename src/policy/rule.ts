// Permission rules: `Tool` or `Tool(pattern)`, parsed once and matched against one tool call.
//
//   Bash            every command          Bash(npm test)   exactly `npm test`
//   Bash(git *)     git with any args      Bash(npm run test:*)   `npm run test…` with any args
//   Read(~/.ssh/**) a file glob            Write(src/**)    Edit(docs/*.md)
//
// Bash patterns are compared word by word after quote removal, so `git "status"` matches
// `Bash(git status)`; a `*` word matches any number of words, `*` inside a word any characters.
// Path patterns are globs (`**` crosses folders, `*` and `?` do not) resolved against the working
// directory (`~/` is the home folder); a pattern ending in `/` means everything below it.

import { parseShell, type Word } from "./shell-parse.ts";
import { itemAt } from "../text/checked-index.ts";

export const RULE_TOOLS = ["Bash", "Read", "Write", "Edit", "Glob", "Grep"] as const;
export type RuleTool = (typeof RULE_TOOLS)[number];

export type Rule =
  | { source: string; tool: RuleTool; kind: "any" }
  | { source: string; tool: "Bash"; kind: "command"; words: string[] }
  | { source: string; tool: Exclude<RuleTool, "Bash">; kind: "path"; glob: string };

export class RuleError extends Error {}

export function parseRule(source: string): Rule {
  const text = source.trim();
  const m = /^([A-Za-z]+)(?:\((.*)\))?$/s.exec(text);
  if (!m)
    throw new RuleError(
      `invalid permission rule "${source}": expected Tool or Tool(pattern), e.g. Bash(npm test) or Write(src/**)`,
    );
  const tool = RULE_TOOLS.find((t) => t.toLowerCase() === itemAt(m, 1).toLowerCase());
  if (!tool)
    throw new RuleError(
      `invalid permission rule "${source}": unknown tool "${m[1]}" (one of ${RULE_TOOLS.join(", ")})`,
    );
  const pattern = m[2]?.trim();
  if (pattern === undefined || pattern === "" || pattern === "*" || pattern === "**")
    return { source: text, tool, kind: "any" };
  if (tool === "Bash") {
    // `npm run lint:*` is a prefix on its last word, then any arguments: `lint`, `lint:fix --quiet`.
    const prefixed = pattern.endsWith(":*");
    const parsed = parseShell(prefixed ? pattern.slice(0, -2) : pattern);
    if (!parsed.ok) throw new RuleError(`invalid permission rule "${source}": ${parsed.error}`);
    if (parsed.commands.length !== 1 || itemAt(parsed.commands, 0).redirects.length) {
      throw new RuleError(
        `invalid permission rule "${source}": a Bash rule names one simple command; ` +
          "list each part of a compound command as its own rule",
      );
    }
    const c = itemAt(parsed.commands, 0);
    const words = [...c.assignments, ...c.words].map((w) => (w.raw === "*" ? "*" : w.text));
    if (prefixed) words.push(`${(words.pop() ?? "").replace(/\*/g, "")}*`, "*");
    return { source: text, tool, kind: "command", words };
  }
  // `Write("my notes/**")`: quotes around a path pattern are allowed and removed.
  const quoted = /^(["'])(.*)\1$/s.exec(pattern);
  return { source: text, tool, kind: "path", glob: quoted ? itemAt(quoted, 2) : pattern };
}

/** Rules that name file edits cover both editing tools; Read rules cover the search tools too. */
export function ruleCoversTool(rule: Rule, tool: string): boolean {
  if (rule.tool === tool) return true;
  if (rule.tool === "Write" || rule.tool === "Edit") return tool === "Write" || tool === "Edit";
  if (rule.tool === "Read") return tool === "Glob" || tool === "Grep";
  return false;
}

const globCache = new Map<string, RegExp>();

/** A glob as a regular expression over a whole string: `**` any characters, `*` and `?` not `/`. */
export function globRegExp(glob: string): RegExp {
  let re = globCache.get(glob);
  if (re) return re;
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = itemAt(glob, i);
    if (c === "*" && glob[i + 1] === "*") {
      // `a/**/b` also matches `a/b`.
      if (glob[i + 2] === "/") {
        out += "(?:.*/)?";
        i += 2;
      } else {
        out += ".*";
        i++;
      }
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{") {
      const close = glob.indexOf("}", i);
      if (close < 0) out += "\\{";
      else {
        out += `(?:${glob
          .slice(i + 1, close)
          .split(",")
          .map((p) => p.replace(/[.+^$()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*"))
          .join("|")})`;
        i = close;
      }
    } else out += c.replace(/[.+^$()|[\]\\}]/g, "\\$&");
  }
  re = new RegExp(`^${out}$`);
  globCache.set(glob, re);
  return re;
}

/**
 * Word-by-word match; a pattern word `*` takes any number of words (even none). `exact` is the
 * stricter reading a dangerous command needs: `*` then takes only words whose value is unknown
 * until the command runs, or a `*` itself (`Bash(rm -rf *)` names `rm -rf "$dir"` and
 * `rm -rf *`, not `rm -rf ~`), and a `*` inside a word matches nothing.
 */
export function matchWords(pattern: string[], words: Word[], exact = false): boolean {
  const go = (p: number, w: number): boolean => {
    if (p === pattern.length) return w === words.length;
    const pw = itemAt(pattern, p);
    if (pw === "*") {
      for (let k = w; k <= words.length; k++) {
        if (go(p + 1, k)) return true;
        if (exact && k < words.length && !itemAt(words, k).dynamic && itemAt(words, k).raw !== "*") return false;
      }
      return false;
    }
    if (exact && pw.includes("*")) return false;
    if (w === words.length) return false;
    const word = itemAt(words, w);
    // A word whose value is only known when it runs can only be taken by a `*`.
    if (word.dynamic) return false;
    const ok = pw.includes("*")
      ? globRegExp(pw.replace(/\//g, "\u0000")).test(word.text.replace(/\//g, "\u0000"))
      : pw === word.text;
    return ok && go(p + 1, w + 1);
  };
  return go(0, 0);
}

/** Does a path rule's glob match the absolute path? `base` resolves a relative glob, `home` `~/`. */
export function matchPath(glob: string, path: string, base: string, home: string): boolean {
  let g = glob;
  if (g === "~" || g.startsWith("~/")) g = home + g.slice(1);
  else if (!g.startsWith("/")) g = `${base.replace(/\/$/, "")}/${g.replace(/^\.\//, "")}`;
  if (g.endsWith("/")) g += "**";
  if (globRegExp(g).test(path)) return true;
  // `Write(src)` names the folder: everything below it.
  return !/[*?{]/.test(g) && path.startsWith(`${g.replace(/\/$/, "")}/`);
}
