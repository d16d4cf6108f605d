// Whether a sed script only edits text: GNU sed's `e` runs a command, `w`/`W` write any file and
// `r`/`R` read any file, also as `s///e` and `s///w FILE` flags. Anything this reader does not
// know is unsafe, so a script outside its small grammar makes the command ask.

import { itemAt } from "../text/checked-index.ts";

/** `1`, `$`, `/re/`, `\%re%`, `first~step`, `addr,+N`, with an optional `!`. */
function skipAddress(s: string, i: number): number {
  const one = (j: number): number => {
    if (/[0-9]/.test(s[j] ?? "")) {
      while (/[0-9~]/.test(s[j] ?? "")) j++;
      return j;
    }
    if (s[j] === "$") return j + 1;
    if (s[j] === "/" || s[j] === "\\") {
      const delim = s[j] === "\\" ? s[j + 1] : "/";
      if (!delim) return -1;
      const end = delimited(s, s[j] === "\\" ? j + 2 : j + 1, delim);
      if (end < 0) return -1;
      j = end;
      while (s[j] === "I" || s[j] === "M") j++;
      return j;
    }
    return j;
  };
  let j = one(i);
  if (j < 0) return -1;
  if (s[j] === ",") {
    j++;
    if (s[j] === "+" || s[j] === "~") j++;
    j = one(j);
    if (j < 0) return -1;
  }
  while (s[j] === " ") j++;
  if (s[j] === "!") j++;
  return j;
}

/** The index after the closing `delim` of a part that starts at `i` (escapes skipped), or -1. */
function delimited(s: string, i: number, delim: string): number {
  for (let j = i; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === "\n") return -1;
    else if (s[j] === delim) return j + 1;
  }
  return -1;
}

const SIMPLE = new Set(["p", "d", "q", "Q", "=", "N", "n", "D", "P", "G", "g", "H", "h", "x", "l", "{", "}"]);

/** True when every command of the script is one of the text-only commands above, `s` or `y`. */
export function sedScriptIsSafe(script: string): boolean {
  let i = 0;
  const s = script;
  while (i < s.length) {
    while (/[\s;]/.test(s[i] ?? "")) i++;
    if (i >= s.length) return true;
    i = skipAddress(s, i);
    if (i < 0) return false;
    while (s[i] === " ") i++;
    const c = s[i];
    if (c === undefined) return false;
    if (c === "s" || c === "y") {
      const delim = s[i + 1];
      if (!delim || /[\w\s\\]/.test(delim)) return false;
      let j = delimited(s, i + 2, delim);
      if (j < 0) return false;
      j = delimited(s, j, delim);
      if (j < 0) return false;
      if (c === "s") while (/[gpiIm0-9]/.test(s[j] ?? "")) j++;
      i = j;
    } else if (SIMPLE.has(c)) {
      i++;
      if ((c === "q" || c === "Q" || c === "l") && /[0-9]/.test(s[i] ?? "")) while (/[0-9]/.test(s[i] ?? "")) i++;
    } else return false;
    while (s[i] === " ") i++;
    if (i < s.length && !/[;\n}]/.test(itemAt(s, i))) return false;
  }
  return true;
}
