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
/** Enough to refill the tallest screen after a resize. */
const RECENT_LINES = 300;
const CLEAR_DOWN = "\x1b[J";

export class ScreenDiff {
  private shown: string[] = [];
  /** The newest committed lines, to refill the screen after a resize. */
  private recent: string[] = [];
  /** Row of the live region the cursor is on. */
  private cursorRow = 0;
  private shownColumns: number;

  constructor(
    private readonly write: (text: string) => void,
    private columns: number,
  ) {
    this.shownColumns = columns;
  }

  /** Writes `lines` to the scrollback above the live region, then redraws the region under them. */
  commit(lines: string[], frame: Frame): void {
    if (!lines.length) return this.render(frame);
    // A tab would move the terminal's cursor to a tab stop the width count cannot see.
    lines = lines.map((l) => (l.includes("\t") ? l.replace(/\t/g, "    ") : l));
    this.recent.push(...lines);
    if (this.recent.length > RECENT_LINES) this.recent.splice(0, this.recent.length - RECENT_LINES);
    // Row by row, never one clear of the whole screen: tmux (scroll-on-clear) copies a fully
    // cleared screen into its history, which left a stale prompt in the scrollback.
    const oldRows = this.shown.length;
    let out = this.toTop();
    // Wrapped here, each row cleared: a line the terminal wrapped itself would print its
    // continuation over an old live row without clearing the rest of it.
    out += lines.flatMap((l) => wrapLine(l, this.columns - 1)).map((l) => `${CLEAR_LINE}${l}\x1b[0m\r\n`).join("");
    this.shown = [];
    this.cursorRow = 0;
    out += this.draw(frame, 0);
    const leftover = oldRows - lines.length - frame.rows.length;
    if (leftover > 0) {
      // Old live rows below the new frame: they exist on screen, so these moves cannot scroll.
      out += `${this.moveTo(frame.rows.length - 1)}\r\n${CLEAR_DOWN}\x1b[1A`;
      this.cursorRow = frame.rows.length - 1;
      out += this.moveTo(frame.cursor.row) + `\r\x1b[${frame.cursor.col + 1}G`;
      this.cursorRow = frame.cursor.row;
    }
    this.write(out);
  }

  /** Redraws the live region, rewriting from the first row that differs. */
  render(frame: Frame): void {
    let first = 0;
    while (first < frame.rows.length && first < this.shown.length && frame.rows[first] === this.shown[first]) first++;
    if (first === frame.rows.length && first === this.shown.length) {
      this.write(this.moveTo(frame.cursor.row) + `\r\x1b[${frame.cursor.col + 1}G`);
      this.cursorRow = frame.cursor.row;
      return;
    }
    this.write(this.draw(frame, first));
  }

  /**
   * The terminal changed size. Terminals disagree on what a resize does to what is already drawn
   * (tmux and VTE re-wrap lines, xterm cuts them, some scroll), and a burst of resize events
   * arrives faster than the output they answer, so no count of rewrapped rows is reliable. The
   * screen is cleared instead and refilled: the newest committed lines, wrapped to the new width,
   * then the live region under them.
   */
  resize(columns: number, rows: number, frame: Frame): void {
    this.columns = columns;
    this.shownColumns = columns;
    const room = Math.max(0, rows - frame.rows.length);
    const refill: string[] = [];
    for (let i = this.recent.length - 1; i >= 0 && refill.length < room; i--) {
      const wrapped = wrapLine(this.recent[i], columns - 1);
      refill.unshift(...wrapped);
    }
    const shown = refill.slice(Math.max(0, refill.length - room));
    this.shown = [];
    this.cursorRow = 0;
    // Each visible row cleared on its own (not ED 2, which tmux copies into its history).
    const wipe = `\x1b[H${`${CLEAR_LINE}\x1b[1B`.repeat(rows)}\x1b[H`;
    this.write(wipe + shown.map((l) => `${l}\x1b[0m\r\n`).join("") + this.draw(frame, 0));
  }

  /** Leaves the region as it is and moves below it (on exit), so the shell prompt starts clean. */
  finish(): void {
    const below = this.shown.length - 1 - this.cursorRow;
    this.write((below > 0 ? `\x1b[${below}B` : "") + "\r\n");
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
      out += this.moveTo(this.shown.length - 1) + "\r\n";
      this.cursorRow = this.shown.length;
    }
    out += "\r";
    if (from < rows.length) {
      for (let i = from; i < rows.length; i++) {
        // A row below the first change that is still the same is stepped over, not rewritten.
        const same = i > from && i < this.shown.length && rows[i] === this.shown[i];
        out += (i > from ? "\r\n" : "") + (same ? "" : CLEAR_LINE + rows[i] + "\x1b[0m");
      }
      // Old rows below the new last one exist on screen, so this newline cannot scroll.
      if (rows.length < this.shown.length) out += "\r\n" + CLEAR_DOWN + "\x1b[1A";
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
    out += this.moveTo(frame.cursor.row) + `\r\x1b[${frame.cursor.col + 1}G`;
    this.cursorRow = frame.cursor.row;
    return out;
  }
}
