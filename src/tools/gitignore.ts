// .gitignore matching as git does it: nested files, negation, directory-only and anchored patterns,
// `**`. The walker asks one question per entry; `.git` itself is always skipped.

import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { itemAt } from "../text/checked-index.ts";

export interface IgnoreRule {
  regex: RegExp;
  negated: boolean;
  dirOnly: boolean;
}

/** The rules of one .gitignore file, which apply to paths below its directory. */
export interface IgnoreFile {
  /** Absolute directory the patterns are relative to. */
  base: string;
  rules: IgnoreRule[];
}

function escapeRegex(ch: string): string {
  return /[.*+?^${}()|[\]\\]/.test(ch) ? `\\${ch}` : ch;
}

/** One path segment of a glob (no `/` inside) as a regex fragment. */
function segmentToRegex(seg: string): string {
  let out = "";
  for (let i = 0; i < seg.length; i++) {
    const ch = itemAt(seg, i);
    if (ch === "\\" && i + 1 < seg.length) {
      out += escapeRegex(itemAt(seg, ++i));
    } else if (ch === "*") {
      while (seg[i + 1] === "*") i++;
      out += "[^/]*";
    } else if (ch === "?") {
      out += "[^/]";
    } else if (ch === "[") {
      const close = seg.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = seg.slice(i + 1, close);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      body = body.replace(/\\/g, "\\\\").replace(/\]/g, "\\]");
      out += negate ? `[^/${body}]` : `[${body}]`;
      i = close;
    } else {
      out += escapeRegex(ch);
    }
  }
  return out;
}

/** Compiles one line of a .gitignore; null for blanks, comments and lines that match nothing. */
export function compileRule(line: string): IgnoreRule | null {
  // Trailing spaces are dropped unless escaped with a backslash.
  let pattern = line.replace(/(?<!\\)\s+$/, "");
  if (pattern === "" || pattern.startsWith("#")) return null;
  let negated = false;
  if (pattern.startsWith("!")) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("\\!") || pattern.startsWith("\\#")) {
    pattern = pattern.slice(1);
  }
  let dirOnly = false;
  if (pattern.endsWith("/")) {
    dirOnly = true;
    pattern = pattern.replace(/\/+$/, "");
  }
  // A slash at the start or in the middle ties the pattern to the .gitignore's directory.
  const anchored = pattern.includes("/");
  pattern = pattern.replace(/^\/+/, "");
  if (pattern === "") return null;

  const segs = pattern.split("/");
  let body = anchored ? "" : "(?:.*/)?";
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    if (seg === "**") {
      // `a/**` is everything inside a; `**/b` and `a/**/b` allow any number of directories.
      body += last ? ".*" : "(?:.*/)?";
    } else {
      body += segmentToRegex(seg) + (last ? "" : "/");
    }
  });
  return { regex: new RegExp(`^${body}$`), negated, dirOnly };
}

export function parseGitignore(text: string): IgnoreRule[] {
  return text
    .split(/\r?\n/)
    .map(compileRule)
    .filter((r): r is IgnoreRule => r !== null);
}

/**
 * What the rules say about one path (relative to their base, `/`-separated): true ignored, false
 * re-included by a negation, undefined when no rule matches. The last matching rule wins.
 */
export function matchRules(rules: IgnoreRule[], relPath: string, isDir: boolean): boolean | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = itemAt(rules, i);
    if (rule.dirOnly && !isDir) continue;
    if (rule.regex.test(relPath)) return !rule.negated;
  }
  return undefined;
}

/**
 * Whether an entry is ignored, assuming its parent directories were not (the walker never enters
 * an ignored directory, which is also why a negation cannot re-include a file inside one).
 * Deeper .gitignore files take precedence, so they are asked first.
 */
export function isIgnored(files: IgnoreFile[], absPath: string, isDir: boolean): boolean {
  const name = absPath.slice(absPath.lastIndexOf("/") + 1);
  if (name === ".git") return true;
  for (let i = files.length - 1; i >= 0; i--) {
    const file = itemAt(files, i);
    if (!absPath.startsWith(`${file.base}/`)) continue;
    const verdict = matchRules(file.rules, absPath.slice(file.base.length + 1), isDir);
    if (verdict !== undefined) return verdict;
  }
  return false;
}

/** The full git answer for a path under one set of rules, parent directories included. */
export function ignoresPath(rules: IgnoreRule[], relPath: string, isDir: boolean): boolean {
  const parts = relPath.split("/");
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    if (parts[i - 1] === ".git" || matchRules(rules, dir, true)) return true;
  }
  if (parts[parts.length - 1] === ".git") return true;
  return matchRules(rules, relPath, isDir) ?? false;
}

function readRules(file: string): IgnoreRule[] {
  try {
    // A FIFO named .gitignore would block the walk (and the whole process) forever.
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return [];
    return parseGitignore(readFileSync(file, "utf8"));
  } catch {
    return [];
  }
}

/** The .gitignore in one directory, if it has any rules. */
export function loadIgnoreFile(dir: string): IgnoreFile | null {
  const rules = readRules(join(dir, ".gitignore"));
  return rules.length > 0 ? { base: dir, rules } : null;
}

function findRepoRoot(start: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The ignore files that govern a walk starting at `start`, from the top down to `start`'s parent:
 * from the repository root when inside one, else from `cwd` when `start` lies under it. The
 * walker loads `start`'s own .gitignore and everything below.
 */
export function ancestorIgnoreFiles(start: string, cwd: string): IgnoreFile[] {
  const inCwd = start === cwd || start.startsWith(`${cwd}/`);
  const top = findRepoRoot(start) ?? (inCwd ? cwd : start);
  const files: IgnoreFile[] = [];
  const exclude = readRules(join(top, ".git", "info", "exclude"));
  if (exclude.length > 0) files.push({ base: top, rules: exclude });
  if (top === start) return files;
  let dir = top;
  for (const part of relative(top, start).split(sep).slice(0, -1)) {
    const file = loadIgnoreFile(dir);
    if (file) files.push(file);
    dir = join(dir, part);
  }
  const file = loadIgnoreFile(dir);
  if (file) files.push(file);
  return files;
}
