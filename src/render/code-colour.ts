// Light syntax colouring for code blocks: comments, strings, numbers and keywords of the common
// languages, one regular expression pass per line. cli-highlight or shiki would cost megabytes and
// tens of milliseconds at start (the measurements); this costs nothing.

import type { Theme } from "./theme.ts";

const KEYWORDS = new Set(
  (
    "abstract as async await break case catch class const continue def default defer del do elif else enum " +
    "export extends false fn for from func function go if impl import in interface let loop match mod module mut " +
    "new nil None not null or package pass private protected pub public raise return self static struct super " +
    "switch this throw true True False try type typeof undefined use var void while with yield"
  ).split(" "),
);

const HASH_COMMENT = new Set([
  "python",
  "py",
  "sh",
  "bash",
  "shell",
  "zsh",
  "ruby",
  "rb",
  "yaml",
  "yml",
  "toml",
  "perl",
  "r",
  "dockerfile",
  "make",
  "makefile",
]);
// Comments, quoted strings (closed or not), numbers and words, in that order of preference.
const TOKEN = new RegExp(
  [
    String.raw`\/\/.*$|#.*$|--.*$`,
    String.raw`"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|\`(?:[^\`\\]|\\.)*\`?`,
    String.raw`\b\d[\d_.xXa-fA-F]*\b|\b[A-Za-z_][\w]*\b`,
  ]
    .map((part) => `(?:${part})`)
    .join("|"),
  "g",
);

export function colourCodeLine(line: string, lang: string, t: Theme): string {
  if (!t.enabled) return line;
  const l = lang.toLowerCase();
  const hash = HASH_COMMENT.has(l);
  const dashes = l === "sql" || l === "lua" || l === "haskell";
  return line.replace(TOKEN, (tok) => {
    const c = tok[0] ?? "";
    if (tok.startsWith("//")) return hash ? tok : t.gray(tok);
    if (c === "#") return hash ? t.gray(tok) : tok;
    if (tok.startsWith("--")) return dashes ? t.gray(tok) : tok;
    if (c === '"' || c === "'" || c === "`") return t.green(tok);
    if (c >= "0" && c <= "9") return t.yellow(tok);
    if (KEYWORDS.has(tok)) return t.magenta(tok);
    return tok;
  });
}
