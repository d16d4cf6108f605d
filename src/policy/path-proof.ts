// Proof that a shell word names only files inside the workspace, none of them protected: the word
// must be fully known before it runs (no `$`, no `~+`/`~-`/`~user`, no braces) and a glob is
// expanded here, as bash would, so every file it can reach is judged by its real path.

import { expandGlobPath } from "./glob-expand.ts";
import { wordPath } from "./input-paths.ts";
import { isProtectedPath, settingsFolder, settingsKind } from "./protected-paths.ts";
import type { Word } from "./shell-parse.ts";
import { hardLinks, insideWorkspace, isWithin, realPathOf } from "./workspace.ts";

export interface PathContext {
  cwd: string;
  home: string;
  /** The workspace roots, as written and real. */
  roots: string[];
  /** Synapse's own folders (config, sessions, history). */
  ownDirs: readonly string[];
}

/** Why the word's value cannot be known before it runs, or null when it can. */
export function unresolvable(w: Word): string | null {
  if (w.dynamic) return `${w.raw} holds an expansion known only when it runs`;
  if (w.braces) return `${w.raw} is a brace expansion`;
  if (w.text.startsWith("~") && !/^~(\/|$)/.test(w.text)) {
    return `${w.raw} starts with a tilde form (~+, ~-, ~user) the checker does not resolve`;
  }
  // bash expands `~` after `=` and `:` in arguments that look like assignments (`x=~/a:~/b`).
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text) && /[=:]~/.test(w.text)) return `${w.raw} holds a tilde bash expands`;
  return null;
}

/** Why the path (read or written) is not plainly inside the workspace, or null. */
export function pathProblem(path: string, ctx: PathContext, writes: boolean): string | null {
  if (!insideWorkspace(path, ctx.roots)) return `${path} is outside the workspace`;
  if (isProtectedPath(path, ctx.home)) return `${path} may hold secrets`;
  const real = realPathOf(path);
  if (ctx.ownDirs.some((d) => isWithin(path, d) || isWithin(real, d))) return `${path} is synapse's own file`;
  if (!writes) return null;
  const settings = settingsKind(path) ?? settingsFolder(path);
  if (settings) return `${path} is ${settings}`;
  if (hardLinks(path) > 1) return `${path} has other hard links`;
  return null;
}

const GLOB = /[*?[]/;
const MAX_MATCHES = 2000;

/** Every file the word names (the glob's matches, or the word itself), or why that is not known. */
export function wordPaths(w: Word, ctx: PathContext): { paths: string[] } | { problem: string } {
  const why = unresolvable(w);
  if (why) return { problem: why };
  const path = wordPath(w.text, ctx.cwd, ctx.home);
  // A quoted `*` is literal, but telling quoted from unquoted needs the raw text: judge both ways.
  if (!GLOB.test(w.text)) return { paths: [path] };
  const segments = path.split("/").slice(1);
  // `.*` and `.?` match `..` in bash before 5.2: a glob could climb out of the folder it names.
  if (segments.some((s) => GLOB.test(s) && s.startsWith("."))) {
    return { problem: `${w.raw} is a glob that could match ".."` };
  }
  // Bracket classes are not read by globRegExp: a match it missed could be a link out.
  if (segments.some((s) => s.includes("["))) return { problem: `${w.raw} is a glob with a bracket class` };
  // Hidden names only by a segment that starts with a dot, and those were refused above.
  const found = expandGlobPath(path, false, MAX_MATCHES);
  if (!found) return { problem: `${w.raw} matches too many files to check` };
  return { paths: [path, ...found] };
}
