// The prompt's text and caret, and every editing key: pure state, no terminal. Large pastes are
// shown as `[pasted N lines]` and expanded back to their text on submit.

import { charWidth } from "../../render/text-width.ts";

const PASTE_INLINE_MAX_LINES = 2;
const PASTE_INLINE_MAX_CHARS = 800;

export class PromptEditor {
  text = "";
  cursor = 0;
  private pastes = new Map<string, string>();
  private history: string[] = [];
  /** Position while browsing history; history.length means "the draft". */
  private browse = 0;
  private draft = "";

  constructor(history: readonly string[] = []) {
    this.history = [...history];
    this.browse = this.history.length;
  }

  isEmpty(): boolean {
    return this.text.length === 0;
  }

  insert(s: string): void {
    this.text = this.text.slice(0, this.cursor) + s + this.text.slice(this.cursor);
    this.cursor += s.length;
  }

  paste(s: string): void {
    const lines = s.split("\n").length;
    if (lines <= PASTE_INLINE_MAX_LINES && s.length <= PASTE_INLINE_MAX_CHARS) return this.insert(s);
    let label = `[pasted ${lines} lines]`;
    for (let n = 2; this.pastes.has(label); n++) label = `[pasted ${lines} lines #${n}]`;
    this.pastes.set(label, s);
    this.insert(label);
  }

  /** The text to send, pastes expanded; the editor is left empty. */
  take(): string {
    let out = this.text;
    for (const [label, content] of this.pastes) out = out.split(label).join(content);
    this.clear();
    return out;
  }

  clear(): void {
    this.text = "";
    this.cursor = 0;
    this.pastes.clear();
    this.browse = this.history.length;
  }

  remember(entry: string): void {
    if (entry.trim() && this.history.at(-1) !== entry) this.history.push(entry);
    this.browse = this.history.length;
  }

  backspace(): void {
    if (this.cursor === 0) return;
    const label = this.pasteLabelEndingAt(this.cursor);
    const from = label ? this.cursor - label.length : this.cursor - charBefore(this.text, this.cursor).length;
    this.text = this.text.slice(0, from) + this.text.slice(this.cursor);
    this.cursor = from;
  }

  deleteForward(): void {
    if (this.cursor >= this.text.length) return;
    const n = String.fromCodePoint(this.text.codePointAt(this.cursor)!).length;
    this.text = this.text.slice(0, this.cursor) + this.text.slice(this.cursor + n);
  }

  left(): void {
    if (this.cursor > 0) this.cursor -= charBefore(this.text, this.cursor).length;
  }

  right(): void {
    if (this.cursor < this.text.length) this.cursor += String.fromCodePoint(this.text.codePointAt(this.cursor)!).length;
  }

  lineStart(): void {
    this.cursor = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  lineEnd(): void {
    const nl = this.text.indexOf("\n", this.cursor);
    this.cursor = nl < 0 ? this.text.length : nl;
  }

  wordLeft(): void {
    let i = this.cursor;
    while (i > 0 && /\s/.test(this.text[i - 1])) i--;
    while (i > 0 && !/\s/.test(this.text[i - 1])) i--;
    this.cursor = i;
  }

  wordRight(): void {
    let i = this.cursor;
    while (i < this.text.length && /\s/.test(this.text[i])) i++;
    while (i < this.text.length && !/\s/.test(this.text[i])) i++;
    this.cursor = i;
  }

  /** Ctrl-K: delete to the end of the line. */
  killToEnd(): void {
    const nl = this.text.indexOf("\n", this.cursor);
    const end = nl < 0 ? this.text.length : nl === this.cursor ? nl + 1 : nl;
    this.text = this.text.slice(0, this.cursor) + this.text.slice(end);
  }

  /** Ctrl-U: delete to the start of the line. */
  killToStart(): void {
    const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
    this.cursor = start;
  }

  /** Ctrl-W: delete the word before the caret. */
  deleteWordBack(): void {
    const end = this.cursor;
    this.wordLeft();
    this.text = this.text.slice(0, this.cursor) + this.text.slice(end);
  }

  /** ↑: the line above, or (on the first line) the previous history entry. */
  up(): void {
    const lineStart = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    if (lineStart > 0) return this.moveLine(-1);
    if (this.browse === 0) return;
    if (this.browse === this.history.length) this.draft = this.text;
    this.browse--;
    this.load(this.history[this.browse]);
  }

  /** ↓: the line below, or (on the last line) the next history entry, then the draft. */
  down(): void {
    if (this.text.indexOf("\n", this.cursor) >= 0) return this.moveLine(1);
    if (this.browse >= this.history.length) return;
    this.browse++;
    this.load(this.browse === this.history.length ? this.draft : this.history[this.browse]);
  }

  /** Rows to draw (after the prompt marker) and the caret's row and column, wrapped to `width`. */
  layout(width: number): { rows: string[]; row: number; col: number } {
    const rows: string[] = [];
    let row = 0;
    let col = 0;
    let line = "";
    let w = 0;
    const text = this.text;
    for (let i = 0; i <= text.length; ) {
      if (i === this.cursor) {
        if (w >= width) {
          rows.push(line);
          line = "";
          w = 0;
        }
        row = rows.length;
        col = w;
      }
      if (i === text.length) break;
      const cp = text.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      if (ch === "\n") {
        rows.push(line);
        line = "";
        w = 0;
      } else {
        // A control character (a pasted tab, DEL, a C1 code) is drawn as one visible column: raw,
        // the terminal would act on it and the caret would land where the text does not end.
        const control = cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
        const cw = control ? 1 : charWidth(cp);
        if (w + cw > width) {
          rows.push(line);
          line = "";
          w = 0;
        }
        line += control ? (ch === "\t" ? " " : "?") : ch;
        w += cw;
      }
      i += ch.length;
    }
    rows.push(line);
    return { rows, row, col };
  }

  private load(text: string): void {
    this.text = text;
    this.cursor = text.length;
  }

  private moveLine(dir: -1 | 1): void {
    const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    const col = this.cursor - start;
    if (dir < 0) {
      const prevStart = this.text.lastIndexOf("\n", start - 2) + 1;
      this.cursor = Math.min(prevStart + col, start - 1);
    } else {
      const nextStart = this.text.indexOf("\n", this.cursor) + 1;
      const nextEnd = this.text.indexOf("\n", nextStart);
      this.cursor = Math.min(nextStart + col, nextEnd < 0 ? this.text.length : nextEnd);
    }
  }

  private pasteLabelEndingAt(index: number): string | undefined {
    for (const label of this.pastes.keys()) if (this.text.slice(index - label.length, index) === label) return label;
    return undefined;
  }
}

function charBefore(text: string, index: number): string {
  const code = text.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text.slice(index - 1, index);
}
