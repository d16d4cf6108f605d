// A differential renderer of our own (the issue's measurements favour it over the TUI libraries:
// fastest first frame, least memory, clean resize once rewrapped rows are counted). The screen is
// two parts: lines committed to the scrollback, written once and never touched again, and a live
// region at the bottom (streaming text, running tools, the prompt, the status line) that is
// redrawn by rewriting only the rows that changed.

import { wrapLine } from "./text-width.ts";

export interface Frame {
  /** The live region's rows, each at most `columns` wide. */
  rows: string[];
  /** Where the cursor should rest (the prompt's caret), as a row and column inside `rows`. */
  cursor: { row: number; col: number };
}

const CLEAR_LINE = "\x1b[2K";
/** The committed lines kept to write the transcript again after a change of width. */
const TRANSCRIPT_LINES = 10_000;
const CLEAR_DOWN = "\x1b[J";
/** Clears the terminal's scrollback (xterm's E3; tmux, VTE, iTerm2, kitty, WezTerm know it). */
const CLEAR_SCROLLBACK = "\x1b[3J";
// Each write is one synchronized update (mode 2026: the terminal shows it whole, never half drawn)
// with the cursor hidden while it moves, so it never hops across the screen; terminals that do
// not know the mode ignore it.
const BEGIN_UPDATE = "\x1b[?2026h\x1b[?25l";
const END_UPDATE = "\x1b[?25h\x1b[?2026l";

export class ScreenDiff {
  private shown: string[] = [];
  /** The committed lines (the newest TRANSCRIPT_LINES), to write again after a change of width. */
  private recent: string[] = [];
  /** Row of the live region the cursor is on. */
  private cursorRow = 0;
  private shownColumns: number;

  private readonly write: (text: string) => void;

  constructor(
    write: (text: string) => void,
    private columns: number,
  ) {
    this.write = (text) => write(BEGIN_UPDATE + text + END_UPDATE);
    this.shownColumns = columns;
  }

  /** Writes `lines` to the scrollback above the live region, then redraws the region under them. */
  commit(lines: string[], frame: Frame): void {
    if (!lines.length) {
      this.render(frame);
      return;
    }
    lines = this.remember(lines);
    // Row by row, never one clear of the whole screen: tmux (scroll-on-clear) copies a fully
    // cleared screen into its history, which left a stale prompt in the scrollback.
    const oldRows = this.shown.length;
    let out = this.toTop();
    // Wrapped here, each row cleared: a line the terminal wrapped itself would print its
    // continuation over an old live row without clearing the rest of it.
    out += lines
      .flatMap((l) => wrapLine(l, this.columns - 1))
      .map((l) => `${CLEAR_LINE}${l}\x1b[0m\r\n`)
      .join("");
    this.shown = [];
    this.cursorRow = 0;
    out += this.draw(frame, 0);
    const leftover = oldRows - lines.length - frame.rows.length;
    if (leftover > 0) {
      // Old live rows below the new frame: they exist on screen, so these moves cannot scroll.
      out += `${this.moveTo(frame.rows.length - 1)}\r\n${CLEAR_DOWN}\x1b[1A`;
      this.cursorRow = frame.rows.length - 1;
      out += `${this.moveTo(frame.cursor.row)}\r\x1b[${frame.cursor.col + 1}G`;
      this.cursorRow = frame.cursor.row;
    }
    this.write(out);
  }

  /** Redraws the live region, rewriting from the first row that differs. */
  render(frame: Frame): void {
    let first = 0;
    while (first < frame.rows.length && first < this.shown.length && frame.rows[first] === this.shown[first]) first++;
    if (first === frame.rows.length && first === this.shown.length) {
      this.write(`${this.moveTo(frame.cursor.row)}\r\x1b[${frame.cursor.col + 1}G`);
      this.cursorRow = frame.cursor.row;
      return;
    }
    this.write(this.draw(frame, first));
  }

  /**
   * The terminal changed size. A change of height leaves every row where it was relative to the
   * cursor (terminals push rows into the scrollback or pull them back, never rewrap), so the live
   * region is redrawn in place. A change of width is another matter: terminals disagree on what it
   * does to what is drawn (tmux and VTE rewrap lines and push the overflow into the scrollback,
   * xterm cuts them), so no count of rows is reliable, and refilling the screen would copy into
   * the scrollback lines it already holds. The screen and the scrollback are cleared instead and
   * the transcript written again at the new width, then the live region under it: every line once.
   */
  resize(columns: number, rows: number, frame: Frame, committed: string[] = []): void {
    const widthChanged = columns !== this.columns;
    this.columns = columns;
    this.shownColumns = columns;
    if (!widthChanged) {
      this.commit(committed, frame);
      return;
    }
    this.remember(committed);
    const transcript = this.recent.flatMap((l) => wrapLine(l, columns - 1));
    this.shown = [];
    this.cursorRow = 0;
    // Each visible row cleared on its own (not ED 2, which tmux copies into its history).
    const wipe = `\x1b[H${`${CLEAR_LINE}\x1b[1B`.repeat(rows)}\x1b[H${CLEAR_SCROLLBACK}`;
    this.write(wipe + transcript.map((l) => `${l}\x1b[0m\r\n`).join("") + this.draw(frame, 0));
  }

  /**
   * A clean screen with the live region at its top (Ctrl-L, /clear): what is above the region
   * scrolls into the scrollback, once, and the region's old rows are erased, never copied there.
   * `rows` − 1 newlines from the region's top row scroll exactly the rows above it away (the first
   * ones only reach the bottom), whatever row that is.
   */
  clearScreen(rows: number, frame: Frame): void {
    let out = this.toTop() + "\r\n".repeat(Math.max(0, rows - 1));
    out += `\x1b[H${`${CLEAR_LINE}\x1b[1B`.repeat(rows)}\x1b[H`;
    this.shown = [];
    this.cursorRow = 0;
    this.write(out + this.draw(frame, 0));
  }

  /** Keeps committed lines for the transcript written again after a change of width. */
  private remember(lines: string[]): string[] {
    // A tab would move the terminal's cursor to a tab stop the width count cannot see.
    const kept = lines.map((l) => (l.includes("\t") ? l.replace(/\t/g, "    ") : l));
    this.recent.push(...kept);
    if (this.recent.length > TRANSCRIPT_LINES) this.recent.splice(0, this.recent.length - TRANSCRIPT_LINES);
    return kept;
  }

  /** Draws the live region afresh where the cursor is (after the shell had the terminal). */
  redrawHere(columns: number, frame: Frame): void {
    this.columns = columns;
    this.shownColumns = columns;
    this.shown = [];
    this.cursorRow = 0;
    this.write(this.draw(frame, 0));
  }

  /** Leaves the region as it is and moves below it (on exit), so the shell prompt starts clean. */
  finish(): void {
    const below = this.shown.length - 1 - this.cursorRow;
    this.write(`${below > 0 ? `\x1b[${below}B` : ""}\r\n`);
    this.shown = [];
    this.cursorRow = 0;
  }

  /** Erases the live region entirely (before exit, or to hand the terminal to a child). */
  clear(): void {
    // Off the home position ED 0 is safe; at home, clear the rows one by one (see commit).
    const rows = Math.max(1, this.shown.length);
    this.write(this.toTop() + Array(rows).fill(CLEAR_LINE).join("\x1b[1B") + (rows > 1 ? `\x1b[${rows - 1}A` : ""));
    this.shown = [];
    this.cursorRow = 0;
  }

  width(): number {
    return this.shownColumns;
  }

  private toTop(): string {
    const up = this.cursorRow > 0 ? `\x1b[${this.cursorRow}A` : "";
    this.cursorRow = 0;
    return `\r${up}`;
  }

  private moveTo(row: number): string {
    const d = row - this.cursorRow;
    return d > 0 ? `\x1b[${d}B` : d < 0 ? `\x1b[${-d}A` : "";
  }

  // Rows are kept narrower than the terminal (see the callers): a row that fills the last column
  // leaves the cursor in the "pending wrap" state, where the clear-below below would eat a character.
  private draw(frame: Frame, from: number): string {
    let out = "";
    const rows = frame.rows;
    if (from < this.shown.length || this.shown.length === 0) {
      out += this.moveTo(from);
      this.cursorRow = from;
    } else {
      // The row after the old region does not exist yet: a newline makes it (scrolling if need be).
      out += `${this.moveTo(this.shown.length - 1)}\r\n`;
      this.cursorRow = this.shown.length;
    }
    out += "\r";
    if (from < rows.length) {
      for (let i = from; i < rows.length; i++) {
        // A row below the first change that is still the same is stepped over, not rewritten.
        const same = i > from && i < this.shown.length && rows[i] === this.shown[i];
        out += (i > from ? "\r\n" : "") + (same ? "" : `${CLEAR_LINE + rows[i]}\x1b[0m`);
      }
      // Old rows below the new last one exist on screen, so this newline cannot scroll.
      if (rows.length < this.shown.length) out += `\r\n${CLEAR_DOWN}\x1b[1A`;
      this.cursorRow = rows.length - 1;
    } else {
      // Only shorter: wipe the old rows from here down and step back onto the new last row.
      out += CLEAR_DOWN;
      if (from > 0) {
        out += "\x1b[1A";
        this.cursorRow = from - 1;
      }
    }
    this.shown = rows.slice();
    out += `${this.moveTo(frame.cursor.row)}\r\x1b[${frame.cursor.col + 1}G`;
    this.cursorRow = frame.cursor.row;
    return out;
  }
}
