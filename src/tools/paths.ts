// Resolves the paths a model passes to a tool: `~` expands to the home directory, relative paths
// resolve against the session's working directory (never the process's).

import { homedir } from "node:os";
import { lstatSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { itemAt } from "../text/checked-index.ts";

export function expandHome(path: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return home + path.slice(1);
  return path;
}

/** An absolute, normalised path; `home` is a parameter so tests need not touch the real one. */
export function resolveToolPath(cwd: string, path: string, home?: string): string {
  const expanded = expandHome(path.trim(), home);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}

/** Edit distance, capped: names further apart than `max` are not worth suggesting. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        itemAt(prev, j) + 1,
        itemAt(cur, j - 1) + 1,
        itemAt(prev, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return itemAt(prev, b.length);
}

const stem = (name: string) => name.replace(/\.[^.]*$/, "").toLowerCase();

/** Names in `names` a model probably meant when it asked for `wanted` (typos, case, extension). */
export function similarNames(wanted: string, names: string[], max = 3): string[] {
  const w = wanted.toLowerCase();
  return names
    .map((name) => {
      const n = name.toLowerCase();
      const d = distance(n, w, 3);
      // Same name in another case or with another extension beats a typo of similar length.
      const score = n === w ? 0 : stem(name) === stem(wanted) ? 1 : d + 1;
      return { name, score, d };
    })
    .filter((c) => c.score <= 3)
    .sort((a, b) => a.score - b.score || a.d - b.d || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((c) => c.name);
}

/** For a symbolic link whose target is missing (or a loop): what it points at, and why it fails. */
export function brokenLinkMessage(path: string): string | null {
  let target: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return null;
    target = readlinkSync(path);
  } catch {
    return null;
  }
  let code: string | undefined;
  try {
    statSync(path);
    return null;
  } catch (err) {
    code = (err as NodeJS.ErrnoException).code;
  }
  const resolved = resolve(dirname(path), target);
  const shown = resolved === target ? target : `${target} (${resolved})`;
  const why =
    code === "ELOOP"
      ? "which leads into a loop of symbolic links"
      : code === "ENOENT" || code === "ENOTDIR"
        ? "which does not exist"
        : `which cannot be reached (${code})`;
  return `${path} is a broken symbolic link: it points at ${shown}, ${why}`;
}

/** The message for a path that does not exist, with close matches from its directory. */
export function notFoundMessage(path: string): string {
  const broken = brokenLinkMessage(path);
  if (broken) return broken;
  const dir = dirname(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return `File not found: ${path} (directory ${dir} does not exist either)`;
  }
  const similar = similarNames(basename(path), names).map((n) => join(dir, n));
  return similar.length > 0
    ? `File not found: ${path}. Did you mean: ${similar.join(", ")}?`
    : `File not found: ${path}`;
}
