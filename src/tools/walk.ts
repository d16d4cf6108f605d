// Walks a directory tree for Glob and Grep when ripgrep cannot run: depth first, skipping `.git`
// and whatever the .gitignore files say, following no symbolic links (as ripgrep does by
// default: links can loop or lead out of the tree), stopping on abort.

import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { ancestorIgnoreFiles, isIgnored, loadIgnoreFile, type IgnoreFile } from "./gitignore.ts";

export interface WalkOptions {
  signal: AbortSignal;
  /** Where relative .gitignore lookups stop when not inside a git repository. */
  cwd: string;
  /** Directory levels below the root to descend (0 = only the root's own files). */
  maxDepth?: number;
}

/** Yields the absolute path of every file under `root` that is not ignored. */
export async function* walkFiles(root: string, opts: WalkOptions): AsyncGenerator<string> {
  const ignores = ancestorIgnoreFiles(root, opts.cwd);
  yield* walkDir(root, ignores, 0, opts);
}

async function* walkDir(
  dir: string,
  inherited: IgnoreFile[],
  depth: number,
  opts: WalkOptions,
): AsyncGenerator<string> {
  if (opts.signal.aborted) return;
  const own = loadIgnoreFile(dir);
  const ignores = own ? [...inherited, own] : inherited;
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    // Unreadable directories are skipped, as `find` and ripgrep do.
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (opts.signal.aborted) return;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (isIgnored(ignores, path, true)) continue;
      if (opts.maxDepth === undefined || depth < opts.maxDepth) yield* walkDir(path, ignores, depth + 1, opts);
    } else if (entry.isFile()) {
      if (!isIgnored(ignores, path, false)) yield path;
    }
  }
}
