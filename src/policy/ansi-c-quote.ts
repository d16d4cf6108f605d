// Decodes a bash `$'…'` string the way bash does, so an escaped command name is seen as what runs.

import { ParseError } from "./shell-syntax.ts";

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
};

/** The text of the `$'…'` that starts at `start` (its `$`), and the index just past its closing quote. */
export function readAnsiC(s: string, start: number): { text: string; end: number } {
  let i = start + 2;
  let text = "";
  while (true) {
    if (i >= s.length) throw new ParseError("unterminated $'…' quote");
    const c = s[i];
    if (c === "'") return { text, end: i + 1 };
    if (c === "\\") {
      const next = s[i + 1] ?? "";
      const rest = s.slice(i + 2);
      // Every escape bash decodes, so `$'\162m'` is seen as the `rm` it runs.
      const code =
        next === "x"
          ? /^[0-9a-fA-F]{1,2}/.exec(rest)
          : next === "u"
            ? /^[0-9a-fA-F]{1,4}/.exec(rest)
            : next === "U"
              ? /^[0-9a-fA-F]{1,8}/.exec(rest)
              : null;
      const octal = /^[0-7]{1,3}/.exec(s.slice(i + 1));
      if (code) {
        const n = parseInt(code[0], 16);
        text += n <= 0x10ffff ? String.fromCodePoint(n) : "";
        i += 2 + code[0].length;
      } else if (octal) {
        text += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
        i += 1 + octal[0].length;
      } else if (next === "c" && i + 2 < s.length) {
        text += String.fromCharCode(s.charCodeAt(i + 2) & 0x1f);
        i += 3;
      } else {
        text += ESCAPES[next] ?? `\\${next}`;
        i += 2;
      }
      continue;
    }
    text += c;
    i++;
  }
}
