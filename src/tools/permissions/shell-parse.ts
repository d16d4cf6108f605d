// Splits a bash command line into the simple commands it would run, for permission checks:
// quoting, escapes, lists (`&&`, `||`, `;`, `&`, newlines), pipelines, subshells, command and
// process substitution, backticks, redirections and here-documents. A regex cannot do this
// safely: `echo "a && b"` is one command, `echo $(rm x)` is two.

export interface Word {
  /** The value after quote removal; unknown parts (expansions) are kept as written. */
  text: string;
  /** The source text of the word, quotes included. */
  raw: string;
  /** Holds an expansion ($var, $(…), `…`), so its value is only known when it runs. */
  dynamic: boolean;
  /** Holds an unquoted brace expansion (`{rm,-rf,~}`): bash turns it into several words. */
  braces?: boolean;
}

export interface Redirect {
  op: string;
  target: Word;
  /** A here-document's text, once its lines have been read. */
  body?: string;
}

export interface SimpleCommand {
  /** Leading `NAME=value` words. */
  assignments: Word[];
  words: Word[];
  redirects: Redirect[];
  /** The command whose output is piped into this one (index into the parse result). */
  pipedFrom?: number;
  /** The command whose word holds the substitution this command runs in (index). */
  insideOf?: number;
}

export type ParseResult = { ok: true; commands: SimpleCommand[] } | { ok: false; error: string };

class ParseError extends Error {}

const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
const RESERVED_PREFIX = new Set(["if", "then", "elif", "else", "do", "while", "until", "!", "{", "time"]);
const RESERVED_ALONE = new Set(["fi", "done", "}", "esac"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
  owner: number;
  redirect: Redirect;
}

class Parser {
  i = 0;
  readonly commands: SimpleCommand[] = [];
  private heredocs: PendingHeredoc[] = [];
  /** The command being read, so substitutions inside its words know where they sit. */
  private current: number | undefined;

  constructor(private readonly s: string) {}

  parseAll(): SimpleCommand[] {
    this.parseList(null);
    if (this.i < this.s.length) throw new ParseError(`unexpected "${this.s[this.i]}"`);
    return this.commands;
  }

  private peek(n = 0): string {
    return this.s[this.i + n] ?? "";
  }

  private skipBlanks(): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === " " || c === "\t") this.i++;
      else if (c === "\\" && this.peek(1) === "\n") this.i += 2;
      else break;
    }
  }

  /** Reads commands until `end` (")" for a subshell or substitution) or the end of input. */
  parseList(end: ")" | null): void {
    let pipedFrom: number | undefined;
    let lastCommand: number | undefined;
    while (true) {
      this.skipBlanks();
      if (this.i >= this.s.length) {
        if (end) throw new ParseError(`missing "${end}"`);
        return;
      }
      const c = this.peek();
      if (c === "#") {
        while (this.i < this.s.length && this.peek() !== "\n") this.i++;
        continue;
      }
      if (c === "\n") {
        this.i++;
        this.readHeredocBodies();
        pipedFrom = undefined;
        continue;
      }
      if (c === ")") {
        if (end !== ")") throw new ParseError('unexpected ")"');
        this.i++;
        return;
      }
      if (c === "|") {
        if (this.peek(1) === "|") {
          this.i += 2;
          pipedFrom = undefined;
        } else {
          this.i += this.peek(1) === "&" ? 2 : 1;
          if (lastCommand === undefined) throw new ParseError('unexpected "|"');
          pipedFrom = lastCommand;
        }
        continue;
      }
      if (c === ";" || c === "&") {
        if (c === ";" && this.peek(1) === ";") throw new ParseError('unexpected ";;" (case statements are not supported)');
        this.i += c === "&" && this.peek(1) === "&" ? 2 : 1;
        pipedFrom = undefined;
        continue;
      }
      if (c === "(") {
        if (this.peek(1) === "(") {
          this.skipArithmetic(2);
          continue;
        }
        this.i++;
        this.parseList(")");
        continue;
      }
      const index = this.parseSimpleCommand(pipedFrom);
      if (index !== undefined) lastCommand = index;
      pipedFrom = undefined;
    }
  }

  /** `((…))` or `$((…))`: arithmetic, balanced parentheses; substitutions inside still run. */
  private skipArithmetic(open: number): void {
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

  private atOperator(): boolean {
    const c = this.peek();
    return c === "" || c === "\n" || c === ";" || c === "&" || c === "|" || c === ")" || c === "(";
  }

  private redirectAhead(): number {
    // An optional fd number or {name}, then < or >, or &> / &>>.
    let j = this.i;
    while (/[0-9]/.test(this.s[j] ?? "")) j++;
    const c = this.s[j];
    if (c === "<" || c === ">") {
      if (this.s[j + 1] === "(") return 0; // process substitution, a word
      return j - this.i + 1;
    }
    if (j === this.i && c === "&" && this.s[j + 1] === ">") return 1;
    return 0;
  }

  private readRedirect(): Redirect {
    while (/[0-9]/.test(this.peek())) this.i++;
    let op = "";
    for (const candidate of ["&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">&", ">|", "<", ">"]) {
      if (this.s.startsWith(candidate, this.i)) {
        op = candidate;
        break;
      }
    }
    this.i += op.length;
    this.skipBlanks();
    if (this.atOperator() || this.peek() === "<" || this.peek() === ">") throw new ParseError(`missing target after "${op}"`);
    const target = this.readWord();
    const redirect: Redirect = { op, target };
    if (op === "<<" || op === "<<-") {
      const quoted = /["'\\]/.test(target.raw);
      this.heredocs.push({ delimiter: target.text, stripTabs: op === "<<-", expands: !quoted, owner: this.current ?? -1, redirect });
    }
    return redirect;
  }

  private readHeredocBodies(): void {
    const pending = this.heredocs;
    this.heredocs = [];
    for (const doc of pending) {
      const lines: string[] = [];
      while (this.i < this.s.length) {
        let nl = this.s.indexOf("\n", this.i);
        if (nl < 0) nl = this.s.length;
        const line = this.s.slice(this.i, nl);
        this.i = Math.min(nl + 1, this.s.length);
        if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
        lines.push(line);
      }
      doc.redirect.body = lines.join("\n");
      // An unquoted delimiter lets $(…) and `…` in the body run.
      if (doc.expands) this.scanExpansions(lines.join("\n"), doc.owner);
    }
  }

  private scanExpansions(text: string, owner: number): void {
    const inner = new Parser(text);
    for (let j = 0; j < text.length; j++) {
      const c = text[j];
      if (c === "\\") {
        j++;
        continue;
      }
      if ((c === "$" && text[j + 1] === "(") || c === "`") {
        inner.i = j;
        inner.readWord();
        j = inner.i - 1;
      }
    }
    this.adopt(inner, owner < 0 ? undefined : owner);
  }

  /** Takes over the commands another parser found (backquotes, here-documents). */
  private adopt(inner: Parser, owner: number | undefined = this.current): void {
    const offset = this.commands.length;
    for (const cmd of inner.commands) {
      const copy: SimpleCommand = { ...cmd };
      if (cmd.pipedFrom !== undefined) copy.pipedFrom = cmd.pipedFrom + offset;
      const inside = cmd.insideOf === undefined ? owner : cmd.insideOf + offset;
      if (inside === undefined) delete copy.insideOf;
      else copy.insideOf = inside;
      this.commands.push(copy);
    }
  }

  private parseSimpleCommand(pipedFrom: number | undefined): number | undefined {
    const cmd: SimpleCommand = { assignments: [], words: [], redirects: [] };
    const index = this.commands.length;
    this.commands.push(cmd);
    if (pipedFrom !== undefined) cmd.pipedFrom = pipedFrom;
    const outer = this.current;
    if (outer !== undefined) cmd.insideOf = outer;
    this.current = index;
    let testBrackets = false;
    try {
      while (true) {
        this.skipBlanks();
        if (testBrackets) {
          // Inside [[ … ]], && || < > ( ) are operators of the test, not of the shell.
          if (this.i >= this.s.length) throw new ParseError('missing "]]"');
          const w = this.readTestWord();
          cmd.words.push(w);
          if (w.text === "]]") testBrackets = false;
          continue;
        }
        if (this.atOperator()) {
          if (this.peek() === "(" && cmd.words.length > 0) throw new ParseError("function definitions are not supported");
          break;
        }
        if (this.peek() === "#") {
          // A `#` that starts a word starts a comment, to the end of the line.
          while (this.i < this.s.length && this.peek() !== "\n") this.i++;
          break;
        }
        const redirect = this.redirectAhead();
        if (redirect) {
          cmd.redirects.push(this.readRedirect());
          continue;
        }
        const word = this.readWord();
        if (cmd.words.length === 0) {
          if (ASSIGNMENT.test(word.raw)) {
            cmd.assignments.push(word);
            continue;
          }
          if (RESERVED_PREFIX.has(word.raw)) continue;
          if (RESERVED_ALONE.has(word.raw)) continue;
          if (word.raw === "case") throw new ParseError("case statements are not supported");
          if (word.raw === "function") throw new ParseError("function definitions are not supported");
          if (word.raw === "[[") testBrackets = true;
        }
        cmd.words.push(word);
      }
    } finally {
      this.current = outer;
    }
    // `for x in a b` and `select` name no command; their words were still read for substitutions.
    const first = cmd.words[0]?.raw;
    if (first === "for" || first === "select") cmd.words = [];
    if (!cmd.words.length && !cmd.assignments.length && !cmd.redirects.length) {
      // Nothing to run (a bare reserved word): keep indexes stable for commands already nested.
      if (this.commands.length === index + 1) {
        this.commands.pop();
        return undefined;
      }
    }
    return index;
  }

  private readTestWord(): Word {
    for (const op of ["&&", "||", "<", ">", "(", ")", "!"]) {
      if (this.s.startsWith(op, this.i)) {
        this.i += op.length;
        return { text: op, raw: op, dynamic: false };
      }
    }
    if (this.peek() === "\n" || this.peek() === ";") throw new ParseError('missing "]]"');
    return this.readWord();
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
        text += this.readAnsiC();
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

  private readAnsiC(): string {
    this.i += 2;
    let text = "";
    const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"' };
    while (true) {
      if (this.i >= this.s.length) throw new ParseError("unterminated $'…' quote");
      const c = this.peek();
      if (c === "'") {
        this.i++;
        return text;
      }
      if (c === "\\") {
        const next = this.peek(1);
        const rest = this.s.slice(this.i + 2);
        // Every escape bash decodes, so `$'\162m'` is seen as the `rm` it runs.
        const code =
          next === "x" ? /^[0-9a-fA-F]{1,2}/.exec(rest) : next === "u" ? /^[0-9a-fA-F]{1,4}/.exec(rest) : next === "U" ? /^[0-9a-fA-F]{1,8}/.exec(rest) : null;
        const octal = /^[0-7]{1,3}/.exec(this.s.slice(this.i + 1));
        if (code) {
          const n = parseInt(code[0], 16);
          text += n <= 0x10ffff ? String.fromCodePoint(n) : "";
          this.i += 2 + code[0].length;
        } else if (octal) {
          text += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
          this.i += 1 + octal[0].length;
        } else if (next === "c" && this.i + 2 < this.s.length) {
          text += String.fromCharCode(this.s.charCodeAt(this.i + 2) & 0x1f);
          this.i += 3;
        } else {
          text += escapes[next] ?? `\\${next}`;
          this.i += 2;
        }
        continue;
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
      const inner = new Parser(body);
      try {
        inner.parseAll();
      } catch (err) {
        throw new ParseError(`in backquotes: ${(err as Error).message}`);
      }
      this.adopt(inner);
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

export function parseShell(source: string): ParseResult {
  try {
    const commands = new Parser(source).parseAll();
    return { ok: true, commands };
  } catch (err) {
    if (err instanceof ParseError) return { ok: false, error: err.message };
    // Thousands of nested `$(` must not crash the run: such a command is one nobody can check.
    if (err instanceof RangeError) return { ok: false, error: "nested too deeply" };
    throw err;
  }
}
