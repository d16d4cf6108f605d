// What an unquoted bash glob in a path names on disk right now, for the policy to judge each match.
// One walker for every check that needs it: a path proof and the protected-files check must not
// disagree about which files a glob reaches.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { globRegExp } from "./rule.ts";

const GLOB_CHARS = /[*?[]/;

/**
 * The existing paths an absolute glob path matches. Hidden names match only a segment that starts
 * with a dot, or any segment under `dotglob`. Null when more than `limit` names matched: a caller
 * that cannot see every match must not treat the glob as judged.
 */
export function expandGlobPath(path: string, dotglob: boolean, limit: number): string[] | null {
  let found = ["/"];
  let budget = limit;
  for (const seg of path.split("/").slice(1)) {
    const next: string[] = [];
    const re = GLOB_CHARS.test(seg) ? globRegExp(seg) : null;
    for (const dir of found) {
      if (!re) {
        next.push(join(dir, seg));
        continue;
      }
      for (const n of namesIn(dir)) {
        if ((n.startsWith(".") && !seg.startsWith(".") && !dotglob) || !re.test(n)) continue;
        if (--budget < 0) return null;
        next.push(join(dir, n));
      }
    }
    found = next;
  }
  return found;
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
