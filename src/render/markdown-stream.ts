// Streamed Markdown, rendered a line at a time: each finished line is rendered once and committed
// to the scrollback; only the unfinished line is redrawn as more text arrives. Rendering the whole
// growing answer again on every delta costs time quadratic in its length (seconds per frame for a
// long answer); this is linear. Code fences and tables are the context a line needs and are
// tracked here; a single newline is a line break, as terminal agents show it.

import { colourCodeLine } from "./code-colour.ts";
import { inert } from "./inert.ts";
import { renderMarkdown } from "./markdown.ts";
import { wrapLine } from "./text-width.ts";
import type { Theme } from "./theme.ts";

const FENCE = /^\s*(```|~~~)\s*([\w+-]*)/;
/** The start of a fence line, all of it so far: "`", "``", "```", "```t". */
const PARTIAL_FENCE = /^\s*(`{1,3}|~{1,3})(?:(?<=```|~~~)\s*[\w+-]*)?$/;
/** An unfinished line longer than this is committed as plain wrapped rows (it is not re-rendered). */
const LONG_LINE = 2000;

export class MarkdownStream {
  private pending = "";
  private fence: string | undefined;
  private table: string[] = [];
  private lastBlank = true;

  constructor(
    private readonly theme: Theme,
    private readonly width: () => number,
  ) {}

  /** Adds streamed text; returns the rows finished by it. */
  push(text: string): string[] {
    this.pending += text;
    const out: string[] = [];
    let nl = this.pending.indexOf("\n");
    while (nl >= 0) {
      out.push(...this.line(this.pending.slice(0, nl)));
      this.pending = this.pending.slice(nl + 1);
      nl = this.pending.indexOf("\n");
    }
    if (this.pending.length > LONG_LINE && !this.table.length) {
      const rows = wrapLine(inert(this.pending), this.width() - 2);
      const keep = rows.pop() ?? "";
      out.push(...rows);
      this.pending = keep;
    }
    return out;
  }

  /**
   * The rows of what is not finished yet (redrawn each frame). A fence still arriving (a closing
   * "```" whose line has not ended) shows nothing rather than its backticks for a moment, and a
   * table row still arriving is drawn in its table rather than as a raw "| a | b" line.
   */
  live(): string[] {
    const pending = this.pending;
    if (PARTIAL_FENCE.test(pending)) return this.tableRows(this.table);
    const inTable = this.fence === undefined && pending.trimStart().startsWith("|") && this.table.length > 0;
    const rows = this.tableRows(inTable ? [...this.table, pending] : this.table);
    if (pending && !inTable) rows.push(...this.render(pending));
    return rows;
  }

  private tableRows(lines: string[]): string[] {
    return lines.length ? renderMarkdown(lines.join("\n"), this.width(), this.theme) : [];
  }

  /** The answer is complete: the rest, rendered. The stream is ready for the next answer. */
  end(): string[] {
    const out = this.pending ? this.line(this.pending) : [];
    out.push(...this.flushTable());
    this.pending = "";
    this.fence = undefined;
    this.lastBlank = true;
    return out;
  }

  /** Drops what is not finished (a retried stream starts over). */
  discard(): void {
    this.pending = "";
    this.table = [];
  }

  private line(line: string): string[] {
    const t = this.theme;
    if (this.fence !== undefined) {
      if (FENCE.test(line) && !line.trim().slice(3)) {
        this.fence = undefined;
        this.lastBlank = false;
        return [];
      }
      return this.codeRows(line, this.fence);
    }
    const open = FENCE.exec(line);
    if (open) {
      const out = this.flushTable();
      this.fence = open[2] ?? "";
      if (this.fence) out.push(t.dim(`  ${inert(this.fence)}`));
      return out;
    }
    if (line.trimStart().startsWith("|")) {
      this.table.push(line);
      return [];
    }
    const out = this.flushTable();
    if (!line.trim()) {
      if (!this.lastBlank) out.push("");
      this.lastBlank = true;
      return out;
    }
    this.lastBlank = false;
    out.push(...this.render(line));
    return out;
  }

  private render(line: string): string[] {
    if (this.fence !== undefined) return this.codeRows(line, this.fence);
    // Leading spaces nest list items; a line rendered alone would lose them.
    const indent = line.length - line.trimStart().length;
    const pad = " ".repeat(Math.min(indent, 8));
    return renderMarkdown(line.trimStart(), this.width() - pad.length, this.theme).map((r) => pad + r);
  }

  /** Code rows carry no gutter: what the user copies from the terminal is the code alone. */
  private codeRows(line: string, lang: string): string[] {
    return wrapLine(colourCodeLine(inert(line.replace(/\t/g, "    ")), lang, this.theme), this.width());
  }

  private flushTable(): string[] {
    if (!this.table.length) return [];
    const rows = renderMarkdown(this.table.join("\n"), this.width(), this.theme);
    this.table = [];
    return rows;
  }
}
