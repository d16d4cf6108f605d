// Brace expansion as bash does it before a command runs, so a check sees the words bash will run.

import type { Word } from "./shell-parse.ts";

/**
 * `{rm,-rf,~}` is `rm -rf ~` to bash. The alternatives of each unquoted brace group, expanded
 * like bash does (at most 64 results; `{a..z}` ranges are kept, they never spell a command).
 */
export function expandBraces(text: string, limit = 64): string[] {
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") {
      if (depth++ === 0) open = i;
    } else if (c === "}" && depth > 0) {
      if (--depth === 0 && commas.length) {
        const parts: string[] = [];
        let from = open + 1;
        for (const at of [...commas, i]) {
          parts.push(text.slice(from, at));
          from = at + 1;
        }
        const head = text.slice(0, open);
        const out: string[] = [];
        for (const tail of expandBraces(text.slice(i + 1), limit)) {
          for (const part of parts) {
            for (const p of expandBraces(part, limit)) {
              if (out.length >= limit) return out;
              out.push(head + p + tail);
            }
          }
        }
        return out;
      }
      if (depth === 0) commas.length = 0;
    } else if (c === "," && depth === 1) commas.push(i);
  }
  return [text];
}

/** The words of a command after brace expansion, when one of them has braces. */
export function braceExpanded(words: Word[]): Word[] | null {
  if (!words.some((w) => w.braces)) return null;
  return words.flatMap((w) =>
    w.braces ? expandBraces(w.text).map((text) => ({ text, raw: text, dynamic: w.dynamic })) : [w],
  );
}
