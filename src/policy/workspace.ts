// The workspace boundary: whether a path, once `..` and symbolic links are resolved, lies inside
// the working directory or an `--add-dir` folder. A file that does not exist yet is judged by the
// real path of its nearest existing ancestor, so a symlinked folder cannot smuggle a new file out.

import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";

/**
 * The real path of `path`: symbolic links of its existing part resolved, the rest appended. A
 * dangling link is followed to where it points (`ak -> ~/.ssh/authorized_keys` is that file,
 * which writing `ak` would create).
 */
export function realPathOf(path: string, depth = 0): string {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      const real = realpathSync(current);
      return missing.length ? join(real, ...missing.reverse()) : real;
    } catch {
      const target = depth < 40 ? danglingTarget(current) : null;
      if (target !== null) return realPathOf(join(resolve(dirname(current), target), ...missing.reverse()), depth + 1);
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      missing.push(basename(current));
      current = parent;
    }
  }
}

function danglingTarget(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch {
    return null;
  }
}

export function isWithin(path: string, root: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The workspace roots, each as written and as its real path. */
export function workspaceRoots(dirs: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const d of dirs) {
    roots.add(resolve(d));
    roots.add(realPathOf(d));
  }
  return [...roots];
}

/** Inside when both the path as written and its real path are inside some root. */
export function insideWorkspace(path: string, roots: readonly string[]): boolean {
  const lexical = resolve(path);
  const real = realPathOf(lexical);
  return roots.some((r) => isWithin(lexical, r)) && roots.some((r) => isWithin(real, r));
}

/**
 * How many names the regular file at `path` has (0 when it is missing or not a regular file).
 * A second hard link is the same file under another name, possibly outside the workspace
 * (`ln ~/.bashrc rc`): writing through it writes there, and no path check can see it.
 */
export function hardLinks(path: string): number {
  try {
    const info = lstatSync(path);
    return info.isFile() ? info.nlink : 0;
  } catch {
    return 0;
  }
}
