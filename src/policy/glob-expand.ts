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
export function expandGlobPath(path: string, dotglob: boolean, limit: number, loose = false): string[] | null {
  let found = ["/"];
  let budget = limit;
  for (const seg of path.split("/").slice(1)) {
    const next: string[] = [];
    const re = GLOB_CHARS.test(seg) ? segmentRegExp(seg, loose) : null;
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

/**
 * `loose`: every match bash could make whatever its options, and more: a bracket class
 * (`.[e]nv`, `.[[:alpha:]]nv`, `.[!x]nv`) is any one character and case is ignored (`shopt -s
 * nocaseglob; cat .E*`). For a check that asks when a glob could reach a protected file.
 */
function segmentRegExp(seg: string, loose: boolean): RegExp {
  if (!loose) return globRegExp(seg);
  return new RegExp(globRegExp(anyForClasses(seg)).source, "i");
}

/** The glob with each bracket class replaced by `?` (one character, any). */
export function anyForClasses(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const end = glob[i] === "[" ? classEnd(glob, i) : -1;
    if (end < 0) out += glob[i];
    else {
      out += "?";
      i = end;
    }
  }
  return out;
}

/** Where the bracket class opening at `start` closes, or -1 when the `[` is literal. */
function classEnd(glob: string, start: number): number {
  let j = start + 1;
  if (glob[j] === "!" || glob[j] === "^") j++;
  if (glob[j] === "]") j++;
  for (; j < glob.length; j++) {
    if (glob.startsWith("[:", j)) {
      const close = glob.indexOf(":]", j + 2);
      if (close < 0) return -1;
      j = close + 1;
    } else if (glob[j] === "]") return j;
  }
  return -1;
}
