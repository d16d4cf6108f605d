// How two directories relate (same, one inside the other, or neither): the pool prefers a shell
// that already sits in or near the directory a command needs.

import { realpathSync } from "node:fs";
import { posix } from "node:path";

export type PathRelation = "same" | "parent" | "child" | "unrelated";

/** Lexical normal form: `.`/`..` resolved, duplicate and trailing slashes dropped (root stays "/"). */
export function normalizePath(path: string): string {
  const n = posix.normalize(path);
  return n.length > 1 && n.endsWith("/") ? n.slice(0, -1) : n;
}

/**
 * Where `a` stands relative to `b`: "parent" when `a` contains `b` (at any depth), "child" when
 * `b` contains `a`. Pure: compares path segments only, so `/a/b` is not a parent of `/a/bc`.
 * Pass paths through resolveRealDir first when symlinks matter.
 */
export function getPathRelation(a: string, b: string): PathRelation {
  const na = normalizePath(a);
  const nb = normalizePath(b);
  if (na === nb) return "same";
  if (contains(na, nb)) return "parent";
  if (contains(nb, na)) return "child";
  return "unrelated";
}

function contains(outer: string, inner: string): boolean {
  if (outer === "/") return inner.startsWith("/");
  return inner.startsWith(outer) && inner.charCodeAt(outer.length) === 47; // "/"
}

/** The real path of a directory when it exists (symlinks resolved), else its lexical normal form. */
export function resolveRealDir(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return normalizePath(path);
  }
}
