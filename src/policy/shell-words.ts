// Reads shell words: quoting, escapes, `$'…'`, and where each expansion (`$x`, `${…}`, `$(…)`,
// `$((…))`, backquotes, `<(…)`) ends. The commands inside substitutions are the grammar's job:
// the parser that extends this class reads them through `parseList` and `parseBackquoted`.

import { readAnsiC } from "./ansi-c-quote.ts";
import { ParseError, type Word } from "./shell-syntax.ts";

const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

export abstract class ShellWords {
  i = 0;

  constructor(protected readonly s: string) {}

  /** Reads commands until `end` (")" for a subshell or substitution) or the end of input. */
  abstract parseList(end: ")" | null): void;

  /** Reads the commands of a backquoted substitution's body. */
  protected abstract parseBackquoted(body: string): void;

  protected peek(n = 0): string {
    return this.s[this.i + n] ?? "";
  }

  protected skipBlanks(): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === " " || c === "\t") this.i++;
      else if (c === "\\" && this.peek(1) === "\n") this.i += 2;
      else break;
    }
  }

  /** `((…))` or `$((…))`: arithmetic, balanced parentheses; substitutions inside still run. */
  protected skipArithmetic(open: number): void {
    this.i += open;
    let depth = 2;
    while (depth > 0) {
      if (this.i >= this.s.length) throw new ParseError('missing "))"');
      const c = this.peek();
      if (c === "$" && this.peek(1) === "(" && this.peek(2) !== "(") {
        this.i += 2;
        this.parseList(")");
        continue;
      }
      if (c === "(") depth++;
      else if (c === ")") depth--;
      this.i++;
    }
  }

  /** One word up to an unquoted metacharacter. */
  readWord(): Word {
    const start = this.i;
    let text = "";
    let dynamic = false;
    let brace = 0; // 1 after an unquoted "{", 2 once a "," or ".." follows it
    let braces = false;
    while (this.i < this.s.length) {
      const c = this.peek();
      if (META.has(c)) {
        // <( and >( start a process substitution only at the beginning of a word.
        if ((c === "<" || c === ">") && this.peek(1) === "(" && this.i === start) {
          this.i += 2;
          this.parseList(")");
          text += `${c}(…)`;
          dynamic = true;
          continue;
        }
        break;
      }
      if (c === "\\") {
        if (this.peek(1) === "\n") this.i += 2;
        else {
          text += this.peek(1);
          this.i += 2;
        }
        continue;
      }
      if (c === "'") {
        const close = this.s.indexOf("'", this.i + 1);
        if (close < 0) throw new ParseError("unterminated single quote");
        text += this.s.slice(this.i + 1, close);
        this.i = close + 1;
        continue;
      }
      if (c === '"') {
        const inner = this.readDoubleQuoted();
        text += inner.text;
        dynamic ||= inner.dynamic;
        continue;
      }
      if (c === "$" && this.peek(1) === "'") {
        const quoted = readAnsiC(this.s, this.i);
        text += quoted.text;
        this.i = quoted.end;
        continue;
      }
      if (c === "$" && this.peek(1) === '"') {
        // `$"…"` is bash's locale string: the text inside (`cat $"../.ssh/id_rsa"` reads that
        // file), or its translation from a message catalog, so its value is known only when it runs.
        this.i++;
        text += this.readDoubleQuoted().text;
        dynamic = true;
        continue;
      }
      if (c === "$" || c === "`") {
        const expansion = this.readExpansion();
        if (expansion !== null) {
          text += expansion;
          dynamic = true;
          continue;
        }
        text += c;
        this.i++;
        continue;
      }
      if (c === "{") brace = 1;
      else if (brace && (c === "," || (c === "." && this.peek(1) === "."))) brace = 2;
      else if (c === "}" && brace === 2) braces = true;
      text += c;
      this.i++;
    }
    const word: Word = { text, raw: this.s.slice(start, this.i), dynamic };
    if (braces) word.braces = true;
    return word;
  }

  private readDoubleQuoted(): { text: string; dynamic: boolean } {
    this.i++;
    let text = "";
    let dynamic = false;
    while (true) {
      if (this.i >= this.s.length) throw new ParseError("unterminated double quote");
      const c = this.peek();
      if (c === '"') {
        this.i++;
        return { text, dynamic };
      }
      if (c === "\\") {
        const next = this.peek(1);
        if (next === "\n") this.i += 2;
        else if (next === "$" || next === "`" || next === '"' || next === "\\") {
          text += next;
          this.i += 2;
        } else {
          text += c;
          this.i++;
        }
        continue;
      }
      if (c === "$" || c === "`") {
        const expansion = this.readExpansion();
        if (expansion !== null) {
          text += expansion;
          dynamic = true;
          continue;
        }
      }
      text += c;
      this.i++;
    }
  }

  /** `$name`, `${…}`, `$(…)`, `$((…))`, `` `…` ``; null when the `$` is literal. */
  private readExpansion(): string | null {
    const start = this.i;
    const c = this.peek();
    if (c === "`") {
      let body = "";
      this.i++;
      while (true) {
        if (this.i >= this.s.length) throw new ParseError("unterminated backquote");
        const d = this.peek();
        if (d === "`") {
          this.i++;
          break;
        }
        if (d === "\\" && ["$", "`", "\\"].includes(this.peek(1))) {
          body += this.peek(1);
          this.i += 2;
          continue;
        }
        body += d;
        this.i++;
      }
      this.parseBackquoted(body);
      return this.s.slice(start, this.i);
    }
    const next = this.peek(1);
    if (next === "(") {
      if (this.peek(2) === "(") this.skipArithmetic(3);
      else {
        this.i += 2;
        this.parseList(")");
      }
      return this.s.slice(start, this.i);
    }
    if (next === "{") {
      this.i += 2;
      let depth = 1;
      while (depth > 0) {
        if (this.i >= this.s.length) throw new ParseError('missing "}"');
        const d = this.peek();
        if (d === "\\") {
          this.i += 2;
          continue;
        }
        if (d === "'") {
          const close = this.s.indexOf("'", this.i + 1);
          if (close < 0) throw new ParseError("unterminated single quote");
          this.i = close + 1;
          continue;
        }
        if (d === '"') {
          this.readDoubleQuoted();
          continue;
        }
        if (d === "$" || d === "`") {
          if (this.readExpansion() !== null) continue;
        }
        if (d === "{") depth++;
        else if (d === "}") depth--;
        this.i++;
      }
      return this.s.slice(start, this.i);
    }
    const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.s.slice(this.i + 1));
    if (!name) return null;
    this.i += 1 + name[0].length;
    return this.s.slice(start, this.i);
  }
}
