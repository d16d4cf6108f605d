// A sandboxed command may write anywhere in a workspace's `.git` but its config and hooks (commits
// need the rest), and a file that does not exist cannot be bound read-only. `.git/commondir` is such
// a file: a plain repository has none, and one that appears sends git to another folder's config,
// hooks and `core.fsmonitor`, which the user's next git command would run outside the sandbox. So
// the pool looks after every command, and again once its shells and their jobs are gone, and
// removes one that appeared since the session's first command.

import { lstatSync, rmSync } from "node:fs";
import { join } from "node:path";

export interface SweptFile {
  path: string;
  removed: boolean;
}

export class GitRedirectGuard {
  private readonly watched: string[];

  /**
   * Watches each root without a `.git/commondir` now, a root that is no repository yet included:
   * a `git init` by a command, then a `commondir`, would trap the user's first git command there.
   */
  constructor(roots: readonly string[]) {
    this.watched = roots.map((root) => join(root, ".git", "commondir")).filter((path) => !entry(path));
  }

  /** Removes each watched file that has appeared (a link is removed, never followed). */
  sweep(): SweptFile[] {
    return this.watched
      .filter((path) => entry(path) !== undefined)
      .map((path) => {
        try {
          rmSync(path, { recursive: true, force: true });
          return { path, removed: true };
        } catch {
          return { path, removed: false };
        }
      });
  }
}

/** What the model and the user read about a swept file. */
export function sweptNotice(file: SweptFile): string {
  const why = "it would send git to another folder's config and hooks, outside the sandbox";
  return file.removed
    ? `synapse removed ${file.path}, which a command wrote: ${why}.`
    : `${file.path} appeared and could not be removed: ${why}; delete it before you run git here.`;
}

const entry = (path: string) => {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
};
