// The `cd` or `pushd` that leaves the workspace: later parts of the line would run out there.

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CommandView } from "./command-view.ts";
import { homeExpanded, wordPath } from "./input-paths.ts";
import { insideWorkspace } from "./workspace.ts";

/** `cd DIR` / `pushd DIR` to a folder outside the workspace (or one only known when it runs). */
export function leavesFor(view: CommandView, cwd: string, home: string, roots: string[]): string | null {
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
