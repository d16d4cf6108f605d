// Fail closed: with no OS sandbox, `default` mode runs a command unasked only when every part of it
// is proven harmless here — a program of safe-programs.ts with options known for it, every file
// it names (operands, option values, redirections) fully known and inside the workspace, none of
// them protected. Anything this cannot prove is the user's call.

import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { CommandView } from "./command-view.ts";
import { type PathContext, pathProblem, unresolvable, wordPaths } from "./path-proof.ts";
import { type ProgramSpec, SAFE_PROGRAMS } from "./safe-programs.ts";
import { GIT_GLOBAL_SAFE, GIT_LIST_ONLY, GIT_LIST_OPTIONS, GIT_READ_ONLY, GIT_UNSAFE_OPTION } from "./safe-git.ts";
import { sedScriptIsSafe } from "./sed-script.ts";
import type { Word } from "./shell-parse.ts";
import { insideWorkspace } from "./workspace.ts";
import { itemAt } from "../text/checked-index.ts";

export interface ProofContext extends PathContext {
  /** The folders of the commands' PATH, to see which file a program name runs. */
  searchPath: readonly string[];
}

/** The first part of the command line that is not proven harmless, and why; null when all are. */
export function unprovenPart(views: CommandView[], ctx: ProofContext): { view: CommandView; why: string } | null {
  let moved = false;
  for (const view of views) {
    // Nested views come from wrappers and command strings: their outer command is judged (and asks).
    if (view.nested) continue;
    // After a `cd`, relative paths are judged from the starting folder; one that climbs with `..`
    // could land elsewhere from the new one.
    const climbs = [...view.words.slice(1), ...view.redirects.map((r) => r.target)].find((w) =>
      /(^|\/)\.\.(\/|$)/.test(w.text),
    );
    if (moved && climbs) return { view, why: `${climbs.raw} climbs with ".." after a cd` };
    const why = viewProblem(view, ctx);
    if (why) return { view, why };
    if (view.words[0]?.text === "cd" && view.words.length > 1) moved = true;
  }
  return null;
}

function viewProblem(view: CommandView, ctx: ProofContext): string | null {
  if (view.assignments.length) {
    return `it sets ${itemAt(view.assignments, 0).raw.split("=")[0]}, which changes what the command does`;
  }
  for (const r of view.redirects) {
    const why = redirectProblem(r, ctx);
    if (why) return why;
  }
  if (!view.words.length) return null;
  const name = itemAt(view.words, 0);
  if (name.dynamic || name.braces || /[*?[\]\\/~]/.test(name.text) || name.text !== name.raw.replace(/^\\/, "")) {
    return `the program ${name.raw} is not named plainly`;
  }
  const spec = SAFE_PROGRAMS[name.text];
  if (name.text === "git") return gitProblem(view.words, ctx);
  if (!spec) return `${name.text} is not on the list of programs known to only read or to write only what they name`;
  const shadow = shadowedIn(name.text, ctx);
  if (shadow) return `${name.text} would run ${shadow}, a file inside the workspace`;
  return argumentsProblem(view.words, spec, ctx);
}

/** A redirection: here-documents and descriptor copies are fine, files must be provably inside. */
function redirectProblem(r: CommandView["redirects"][number], ctx: ProofContext): string | null {
  if (r.op === "<<" || r.op === "<<-" || r.op === "<<<") return null;
  if ((r.op === ">&" || r.op === "<&") && /^(\d+-?|-)$/.test(r.target.text) && !r.target.dynamic) return null;
  if (/^\/dev\/(null|stdout|stderr)$/.test(r.target.text) && !r.target.dynamic) return null;
  return pathsProblem(r.target, ctx, r.op !== "<");
}

function pathsProblem(w: Word, ctx: ProofContext, writes: boolean): string | null {
  if (!w.dynamic && (w.text === "-" || /^\/dev\/(null|stdout|stderr)$/.test(w.text))) return null;
  const found = wordPaths(w, ctx);
  if ("problem" in found) return found.problem;
  for (const p of found.paths) {
    const why = pathProblem(p, ctx, writes);
    // pathProblem says `<path> is …`: read as `it writes <path>, which is …`.
    if (why) return writes && why.startsWith(`${p} `) ? `it writes ${p}, which ${why.slice(p.length + 1)}` : why;
  }
  return null;
}

/** Options split into flags and values against the program's list; operands kept in order. */
function argumentsProblem(words: Word[], spec: ProgramSpec, ctx: ProofContext): string | null {
  const name = itemAt(words, 0).text;
  if (name === "find") {
    // find's options are an expression, read by findProblem; only -H and -P may come first.
    let i = 1;
    while (words[i]?.text === "-H" || words[i]?.text === "-P") i++;
    for (const w of words.slice(i)) {
      const why = unresolvable(w);
      if (why) return why;
    }
    return findProblem(words.slice(i), ctx);
  }
  const operands: Word[] = [];
  const scripts: string[] = [];
  let inPlace = false;
  let patternGiven = false;
  let ended = false;
  for (let i = 1; i < words.length; i++) {
    const w = itemAt(words, i);
    const why = unresolvable(w);
    if (why && (spec.operands !== "text" || w.dynamic)) return why;
    const t = w.text;
    if (ended || spec.short === "*" || t === "-" || !t.startsWith("-")) {
      operands.push(w);
      continue;
    }
    if (t === "--") {
      ended = true;
      continue;
    }
    if ((name === "head" || name === "tail") && /^-\d+$/.test(t)) continue; // the old `-5` form of -n 5
    if (name === "sed" && /^(-i|--in-place)/.test(t)) {
      // A backup suffix with a `/` names a folder to write the backup into.
      if (!/^(-i|--in-place=?)[\w.~-]*$/.test(t)) return `sed ${t} writes a backup somewhere else`;
      inPlace = true;
      continue;
    }
    if (t.startsWith("--")) {
      const [opt, value] = [t.split("=")[0] ?? t, t.includes("=") ? t.slice(t.indexOf("=") + 1) : undefined];
      if (spec.long?.includes(opt) && value === undefined) continue;
      if (!spec.longValue?.includes(opt)) return `${name} ${opt} is not an option known to be harmless`;
      const v = value ?? words[++i]?.text;
      if (v === undefined) return `${name} ${opt} lacks its value`;
      if (opt === "--expression") scripts.push(v);
      if (opt === "--regexp" || opt === "--file" || opt === "--expression") patternGiven = true;
      if (opt === "--file" || opt === "--reference") {
        const p = pathsProblem({ ...w, text: v }, ctx, false);
        if (p) return p;
      }
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const c = itemAt(t, k);
      if (spec.shortValue?.includes(c)) {
        const v = k + 1 < t.length ? t.slice(k + 1) : words[++i]?.text;
        if (v === undefined) return `${name} -${c} lacks its value`;
        if (name === "sed" && c === "e") scripts.push(v);
        if ((name === "grep" || name === "rg" || name === "sed") && (c === "e" || c === "f")) patternGiven = true;
        if ((name === "grep" && c === "f") || (name === "touch" && c === "r")) {
          const p = pathsProblem({ ...w, text: v, raw: v }, ctx, false);
          if (p) return p;
        }
        break;
      }
      if (!spec.short.includes(c)) return `${name} -${c} is not an option known to be harmless`;
    }
  }
  return operandsProblem(name, spec, operands, { scripts, inPlace, patternGiven }, ctx);
}

interface Parsed {
  scripts: string[];
  inPlace: boolean;
  patternGiven: boolean;
}

function operandsProblem(
  name: string,
  spec: ProgramSpec,
  operands: Word[],
  parsed: Parsed,
  ctx: ProofContext,
): string | null {
  if (spec.minOperands !== undefined && operands.length < spec.minOperands) return `${name} with too few operands`;
  if ((name === "uniq" || name === "xxd") && operands.length > 1) return `${name} writes its second operand`;
  // jq's filter is a program: its modules are files it reads wherever they are
  // (`import "/home/u/.docker/config" as $c; $c` prints that file).
  if (name === "jq" && !parsed.patternGiven && /\b(import|include|modulemeta)\b/.test(operands[0]?.text ?? ""))
    return "the jq filter loads a module (import, include, modulemeta): a file it names, anywhere";
  if (spec.operands === "text") return null;
  let files = operands;
  if (spec.operands === "pattern-then-read" && !parsed.patternGiven) {
    if (name === "sed") parsed.scripts.push(operands[0]?.text ?? "");
    files = operands.slice(1);
  }
  if (name === "sed" && !parsed.scripts.every(sedScriptIsSafe)) {
    return "the sed script runs, reads or writes more than the text it edits (e, r, w)";
  }
  const writes = spec.operands === "write" || (name === "sed" && parsed.inPlace);
  for (let i = 0; i < files.length; i++) {
    // cp reads its sources; mv removes them, so they are as good as written.
    const written = writes || (spec.operands === "copy" && (name === "mv" || i === files.length - 1));
    const why = pathsProblem(itemAt(files, i), ctx, written);
    if (why) return why;
  }
  return null;
}

/** find's start folders are read; its expression may only test, print and prune. */
const FIND_TESTS = new Set([
  "-empty",
  "-print",
  "-print0",
  "-ls",
  "-prune",
  "-not",
  "!",
  "(",
  ")",
  "-o",
  "-a",
  "-or",
  "-and",
  "-depth",
  "-true",
  "-false",
  "-readable",
  "-writable",
  "-executable",
  "-nouser",
  "-nogroup",
  "-quit",
]);
const FIND_VALUE_TESTS = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-type",
  "-xtype",
  "-maxdepth",
  "-mindepth",
  "-size",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-perm",
  "-user",
  "-group",
  "-links",
  "-inum",
  "-printf",
  "-regextype",
  "-uid",
  "-gid",
]);

function findProblem(words: Word[], ctx: ProofContext): string | null {
  let i = 0;
  for (; i < words.length && !/^[-(!)]/.test(itemAt(words, i).text); i++) {
    const why = pathsProblem(itemAt(words, i), ctx, false);
    if (why) return why;
  }
  if (i === 0) {
    const why = pathProblem(ctx.cwd, ctx, false);
    if (why) return why;
  }
  for (; i < words.length; i++) {
    const t = itemAt(words, i).text;
    if (FIND_TESTS.has(t)) continue;
    if (FIND_VALUE_TESTS.has(t)) {
      i++;
      continue;
    }
    if (t === "-newer" || t === "-samefile") {
      const w = words[++i];
      const why = w ? pathsProblem(w, ctx, false) : "find lacks a value";
      if (why) return why;
      continue;
    }
    return `find ${t} is not a test known to be harmless (-exec, -delete, -fprint… ask)`;
  }
  return null;
}

/** git: `-C DIR` and a few harmless switches, then a subcommand that only reads. */
function gitProblem(words: Word[], ctx: ProofContext): string | null {
  let i = 1;
  let dir = ctx.cwd;
  for (; i < words.length && itemAt(words, i).text.startsWith("-"); i++) {
    const t = itemAt(words, i).text;
    if (GIT_GLOBAL_SAFE.has(t)) continue;
    if (t !== "-C") return `git ${t} is not an option known to be harmless`;
    const w = words[++i];
    if (!w) return "git -C lacks its folder";
    const why = pathsProblem(w, ctx, false);
    if (why) return why;
    dir = resolve(dir, w.text);
  }
  const sub = words[i]?.text;
  if (!sub || !GIT_READ_ONLY.has(sub))
    return `git ${sub ?? ""} is not a git command known to only read`.replace("  ", " ");
  const rest = words.slice(i + 1);
  for (const w of rest) {
    const why = unresolvable(w);
    if (why) return why;
    if (GIT_UNSAFE_OPTION.test(w.text)) return `git ${sub} ${w.text} writes a file or runs a configured program`;
    if (GIT_LIST_ONLY.has(sub)) {
      const listing = rest.some((x) => x.text === "-l" || x.text === "--list");
      if (!GIT_LIST_OPTIONS.test(w.text) && !(listing && !w.text.startsWith("-"))) {
        return `git ${sub} ${w.text} changes the repository (only the list forms run unasked)`;
      }
    }
    // Revisions and pathspecs stay in the repository; a plain path out of it is judged as one.
    if (/^(\/|~|\.\.)/.test(w.text)) {
      const p = pathsProblem(w, ctx, false);
      if (p) return p;
    }
  }
  return gitConfigProblem(dir);
}

/** A repository whose own config names programs (fsmonitor, textconv, filters, includes) that a read would run. */
const CONFIG_RUNS =
  /^\s*(fsmonitor|external|textconv|clean|smudge|process|pager|sshcommand|hookspath)\s*=|^\s*\[\s*include/im;

function gitConfigProblem(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    const config = join(d, ".git", "config");
    let text: string | null = null;
    // Most folders hold no repository: a stat that does not throw is cheaper than a failed read.
    if (statSync(config, { throwIfNoEntry: false })?.isFile()) {
      try {
        text = readFileSync(config, "utf8");
      } catch {
        text = "";
      }
    }
    if (text !== null) {
      return CONFIG_RUNS.test(text)
        ? `${config} names programs git runs (fsmonitor, textconv, filters, includes)`
        : null;
    }
    if (dirname(d) === d) return null;
  }
}

/** The file a program name would run when PATH finds it inside the workspace first (a planted `ls`). */
function shadowedIn(name: string, ctx: ProofContext): string | null {
  for (const dir of pathDirsInside(ctx)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
    } catch {
      continue;
    }
    return file;
  }
  return null;
}

/**
 * The PATH folders that lie inside the workspace (relative entries like `.` or `node_modules/.bin`
 * do, from the folder a command runs in): only a file there can stand in for a listed program.
 * Worked out once per folder; a folder outside stays outside whatever a command writes.
 */
const insideDirs = new Map<string, string[]>();
function pathDirsInside(ctx: ProofContext): string[] {
  const key = `${ctx.cwd}\0${ctx.roots.join("\0")}\0${ctx.searchPath.join(":")}`;
  let dirs = insideDirs.get(key);
  if (!dirs) {
    dirs = ctx.searchPath.map((d) => resolve(ctx.cwd, d || ".")).filter((d) => insideWorkspace(d, ctx.roots));
    if (insideDirs.size > 64) insideDirs.clear();
    insideDirs.set(key, dirs);
  }
  return dirs;
}
