// Splits a bash command line into the simple commands it would run, for permission checks:
// quoting, escapes, lists (`&&`, `||`, `;`, `&`, newlines), pipelines, subshells, command and
// process substitution, backticks, redirections and here-documents. A regex cannot do this
// safely: `echo "a && b"` is one command, `echo $(rm x)` is two.

import { ParseError, type ParseResult, type Redirect, type SimpleCommand, type Word } from "./shell-syntax.ts";
import { ShellWords } from "./shell-words.ts";

export type { ParseResult, Redirect, SimpleCommand, Word } from "./shell-syntax.ts";

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

/** The grammar: lists, pipelines, subshells, simple commands, redirections and here-documents. */
class Parser extends ShellWords {
  readonly commands: SimpleCommand[] = [];
  private heredocs: PendingHeredoc[] = [];
  /** The command being read, so substitutions inside its words know where they sit. */
  private current: number | undefined;

  parseAll(): SimpleCommand[] {
    this.parseList(null);
    if (this.i < this.s.length) throw new ParseError(`unexpected "${this.s[this.i]}"`);
    return this.commands;
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
        if (c === ";" && this.peek(1) === ";")
          throw new ParseError('unexpected ";;" (case statements are not supported)');
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
    if (this.atOperator() || this.peek() === "<" || this.peek() === ">")
      throw new ParseError(`missing target after "${op}"`);
    const target = this.readWord();
    const redirect: Redirect = { op, target };
    if (op === "<<" || op === "<<-") {
      const quoted = /["'\\]/.test(target.raw);
      this.heredocs.push({
        delimiter: target.text,
        stripTabs: op === "<<-",
        expands: !quoted,
        owner: this.current ?? -1,
        redirect,
      });
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
    let timed = false;
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
          if (this.peek() === "(" && cmd.words.length > 0)
            throw new ParseError("function definitions are not supported");
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
        const word = this.readWordAdvancing();
        if (cmd.words.length === 0) {
          if (ASSIGNMENT.test(word.raw)) {
            cmd.assignments.push(word);
            continue;
          }
          if (RESERVED_PREFIX.has(word.raw)) {
            timed = word.raw === "time";
            continue;
          }
          // `time -p cmd`: the option belongs to the reserved word, not to the command.
          if (timed && word.raw === "-p") continue;
          timed = false;
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
    return this.readWordAdvancing();
  }

  /**
   * A word that consumed input: a character no word may start with (a lone `|` or `&` in `[[ ]]`)
   * would otherwise be read as an empty word forever.
   */
  private readWordAdvancing(): Word {
    const at = this.i;
    const word = this.readWord();
    if (this.i === at) throw new ParseError(`unexpected "${this.peek()}"`);
    return word;
  }

  /** Backquotes hold a command line of their own; its commands sit inside the current one. */
  protected parseBackquoted(body: string): void {
    const inner = new Parser(body);
    try {
      inner.parseAll();
    } catch (err) {
      throw new ParseError(`in backquotes: ${(err as Error).message}`);
    }
    this.adopt(inner);
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
