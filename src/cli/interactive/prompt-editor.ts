// The prompt's text and caret, and every editing key: pure state, no terminal. Large pastes are
// shown as `[pasted N lines]` and expanded back to their text on submit. The caret moves and
// deletes by grapheme (a flag, 👍🏽, e + combining accent are one step), and ↑/↓ move by the rows
// the draft is drawn in before they reach history.

import { charWidth } from "../../render/text-width.ts";

const PASTE_INLINE_MAX_LINES = 2;
const PASTE_INLINE_MAX_CHARS = 800;
/** A history entry taller than this (a big paste sent before) comes back as a paste's label. */
const RECALL_INLINE_MAX_LINES = 10;
const RECALL_INLINE_MAX_CHARS = 4000;

// Made on first use, not at load: building a segmenter (ICU) takes ~2 ms, before the first frame.
let segmenter: Intl.Segmenter | undefined;
const graphemes = (): Intl.Segmenter => {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return segmenter;
};

/** Where a caret may stand: every grapheme boundary, with the row and column it is drawn at. */
interface Stop {
  index: number;
  row: number;
  col: number;
}

export class PromptEditor {
  text = "";
  cursor = 0;
  private pastes = new Map<string, string>();
  private history: string[] = [];
  /** Position while browsing history; history.length means "the draft". */
  private browse = 0;
  private draft = "";
  /** The width the draft was last laid out at: ↑/↓ move by the rows drawn at it. */
  private width = Number.POSITIVE_INFINITY;
  /** The last paste: a paste that continues it (one burst split over reads) is joined to it. */
  private lastPaste: { from: number; to: number; text: string } | undefined;
  /** What Ctrl-K, Ctrl-U, Ctrl-W or Alt-D last cut: Ctrl-Y puts it back at the caret. */
  private killed = "";

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

  /** `continues`: the rest of the paste before (a burst the terminal delivered in pieces). */
  paste(s: string, continues = false): void {
    const last = this.lastPaste;
    if (continues && last && this.cursor === last.to && this.text.length >= last.to) {
      const shown = this.text.slice(last.from, last.to);
      this.pastes.delete(shown);
      this.text = this.text.slice(0, last.from) + this.text.slice(last.to);
      this.cursor = last.from;
      s = last.text + s;
    }
    const from = this.cursor;
    // A final newline ends the last line; it does not start another.
    const lines = s.replace(/\n$/, "").split("\n").length;
    if (lines <= PASTE_INLINE_MAX_LINES && s.length <= PASTE_INLINE_MAX_CHARS) this.insert(s);
    else {
      const what = `${lines} line${lines === 1 ? "" : "s"}`;
      let label = `[pasted ${what}]`;
      for (let n = 2; this.pastes.has(label); n++) label = `[pasted ${what} #${n}]`;
      this.pastes.set(label, s);
      this.insert(label);
    }
    this.lastPaste = { from, to: this.cursor, text: s };
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
    this.lastPaste = undefined;
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
    const from = label ? this.cursor - label.length : graphemeStart(this.text, this.cursor);
    this.text = this.text.slice(0, from) + this.text.slice(this.cursor);
    this.cursor = from;
  }

  deleteForward(): void {
    if (this.cursor >= this.text.length) return;
    this.text = this.text.slice(0, this.cursor) + this.text.slice(graphemeEnd(this.text, this.cursor));
  }

  left(): void {
    if (this.cursor > 0) this.cursor = graphemeStart(this.text, this.cursor);
  }

  right(): void {
    if (this.cursor < this.text.length) this.cursor = graphemeEnd(this.text, this.cursor);
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
    while (i > 0 && /\s/.test(this.text.charAt(i - 1))) i--;
    while (i > 0 && !/\s/.test(this.text.charAt(i - 1))) i--;
    this.cursor = i;
  }

  wordRight(): void {
    let i = this.cursor;
    while (i < this.text.length && /\s/.test(this.text.charAt(i))) i++;
    while (i < this.text.length && !/\s/.test(this.text.charAt(i))) i++;
    this.cursor = i;
  }

  /** Ctrl-K: delete to the end of the line. */
  killToEnd(): void {
    const nl = this.text.indexOf("\n", this.cursor);
    const end = nl < 0 ? this.text.length : nl === this.cursor ? nl + 1 : nl;
    this.cut(this.cursor, end);
  }

  /** Ctrl-U: delete to the start of the line. */
  killToStart(): void {
    const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    this.cut(start, this.cursor);
  }

  /** Ctrl-W: delete the word before the caret. */
  deleteWordBack(): void {
    const end = this.cursor;
    this.wordLeft();
    this.cut(this.cursor, end);
  }

  /** Alt-D: delete the word after the caret. */
  deleteWordForward(): void {
    const start = this.cursor;
    this.wordRight();
    this.cut(start, this.cursor);
  }

  /** Ctrl-Y: put back what was cut last. */
  yank(): void {
    if (this.killed) this.insert(this.killed);
  }

  /** Removes text[from, to), keeps it for Ctrl-Y (an empty cut keeps the last one), caret at `from`. */
  private cut(from: number, to: number): void {
    if (to > from) this.killed = this.text.slice(from, to);
    this.text = this.text.slice(0, from) + this.text.slice(to);
    this.cursor = from;
  }

  /** ↑: the row above (a wrapped line's rows too), or (on the first row) the previous history entry. */
  up(): void {
    if (this.moveRow(-1)) return;
    if (this.browse === 0) return;
    if (this.browse === this.history.length) this.draft = this.text;
    this.browse--;
    this.load(this.history[this.browse] ?? "");
  }

  /** ↓: the row below, or (on the last row) the next history entry, then the draft. */
  down(): void {
    if (this.moveRow(1)) return;
    if (this.browse >= this.history.length) return;
    this.browse++;
    this.load(this.browse === this.history.length ? this.draft : (this.history[this.browse] ?? ""));
  }

  /** Rows to draw (after the prompt marker) and the caret's row and column, wrapped to `width`. */
  layout(width: number): { rows: string[]; row: number; col: number } {
    this.width = width;
    const { rows, stops } = this.place(width);
    // place() always ends with the stop after the last character.
    const at = stops.find((s) => s.index === this.cursor) ?? stops.at(-1) ?? { index: 0, row: 0, col: 0 };
    // A caret past the last column of a full row is drawn at the start of the next one.
    if (at.row === rows.length) rows.push("");
    return { rows, row: at.row, col: at.col };
  }

  /** The draft cut into rows of `width` columns, and where the caret stands at each boundary. */
  private place(width: number): { rows: string[]; stops: Stop[] } {
    const rows: string[] = [];
    const stops: Stop[] = [];
    let line = "";
    let w = 0;
    const stop = (index: number) =>
      stops.push(w >= width ? { index, row: rows.length + 1, col: 0 } : { index, row: rows.length, col: w });
    for (const { segment, index } of segments(this.text)) {
      stop(index);
      if (segment === "\n" || segment === "\r\n") {
        rows.push(line);
        line = "";
        w = 0;
        continue;
      }
      const cp = segment.codePointAt(0) ?? 0;
      // A control character (a pasted tab, DEL, a C1 code) is drawn as one visible column: raw,
      // the terminal would act on it and the caret would land where the text does not end.
      const control = cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
      const cw = control ? 1 : clusterWidth(segment);
      if (w + cw > width) {
        rows.push(line);
        line = "";
        w = 0;
      }
      line += control ? (segment === "\t" ? " " : "?") : segment;
      w += cw;
    }
    stop(this.text.length);
    rows.push(line);
    return { rows, stops };
  }

  /** Moves the caret one drawn row up or down, keeping its column; false on the first/last row. */
  private moveRow(dir: -1 | 1): boolean {
    const { stops } = this.place(this.width);
    const at = stops.find((s) => s.index === this.cursor);
    if (!at) return false;
    const row = stops.filter((s) => s.row === at.row + dir);
    if (!row.length) return false;
    const left = row.filter((s) => s.col <= at.col);
    const target = left.at(-1) ?? row[0];
    if (!target) return false;
    this.cursor = target.index;
    return true;
  }

  private load(text: string): void {
    text = this.asShown(text);
    this.text = text;
    this.cursor = text.length;
  }

  /**
   * Text coming back into the draft (a history entry, a queued input an interrupt returns) as it
   * is to be drawn: a big one as a paste's label. Drawn whole it would fill the screen, and ↑
   * would walk each of its rows before reaching the entry before it; it is sent whole as it was.
   */
  asShown(text: string): string {
    const lines = text.split("\n").length;
    return lines > RECALL_INLINE_MAX_LINES || text.length > RECALL_INLINE_MAX_CHARS ? this.labelFor(text) : text;
  }

  /** The label `content` is shown as: the one it has, or a new one no other paste uses. */
  private labelFor(content: string): string {
    for (const [label, held] of this.pastes) if (held === content) return label;
    const lines = content.replace(/\n$/, "").split("\n").length;
    const what = `${lines} line${lines === 1 ? "" : "s"}`;
    let label = `[pasted ${what}]`;
    for (let n = 2; this.pastes.has(label); n++) label = `[pasted ${what} #${n}]`;
    this.pastes.set(label, content);
    return label;
  }

  private pasteLabelEndingAt(index: number): string | undefined {
    for (const label of this.pastes.keys()) if (this.text.slice(index - label.length, index) === label) return label;
    return undefined;
  }
}

/** The text's graphemes; plain ASCII (most drafts) without the segmenter's cost. */
function segments(text: string): Iterable<{ segment: string; index: number }> {
  if (!/^[\x00-\x7f]*$/.test(text)) return graphemes().segment(text);
  return Array.from(text, (segment, index) => ({ segment, index }));
}

/** Where the grapheme that ends at `index` starts (a line break always ends one: look from the line's start). */
function graphemeStart(text: string, index: number): number {
  const from = text.lastIndexOf("\n", index - 2) + 1;
  let start = from;
  for (const { index: i } of segments(text.slice(from, index))) start = from + i;
  return start;
}

/** Where the grapheme that starts at `index` ends. */
function graphemeEnd(text: string, index: number): number {
  const first = graphemes().segment(text.slice(index)).containing(0);
  return index + (first?.segment.length ?? 1);
}

/** Columns a grapheme takes: its widest code point (a modifier or joined emoji adds none). */
function clusterWidth(segment: string): number {
  let w = 0;
  for (const ch of segment) w = Math.max(w, charWidth(ch.codePointAt(0) ?? 0));
  return segment.includes("\uFE0F") ? 2 : w;
}
