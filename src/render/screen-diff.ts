// A differential renderer of our own (the measurements favour it over the TUI libraries:
// fastest first frame, least memory, clean resize once rewrapped rows are counted). The screen is
// two parts: lines committed to the scrollback, written once and never touched again, and a live
// region at the bottom (streaming text, running tools, the prompt, the status line) that is
// redrawn by rewriting only the rows that changed.

import { textWidth } from "./text-width.ts";

export interface Frame {
  /** The live region's rows, each at most `columns` wide. */
  rows: string[];
  /** Where the cursor should rest (the prompt's caret), as a row and column inside `rows`. */
  cursor: { row: number; col: number };
}

const CLEAR_LINE = "\x1b[2K";
const CLEAR_DOWN = "\x1b[J";

export class ScreenDiff {
  private shown: string[] = [];
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
    let out = this.toTop() + CLEAR_DOWN;
    out += lines.map((l) => `${l}\x1b[0m\r\n`).join("");
    this.shown = [];
    this.cursorRow = 0;
    this.write(out + this.draw(frame, 0));
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
   * The terminal changed width: it has rewrapped what we drew, so the old rows now take a
   * different number of screen rows. Count them at the new width, go up that far and redraw.
   */
  resize(columns: number, frame: Frame): void {
    const old = this.shown;
    let above = 0;
    for (let i = 0; i < this.cursorRow && i < old.length; i++) above += Math.max(1, Math.ceil(textWidth(old[i]) / columns));
    this.columns = columns;
    this.shownColumns = columns;
    this.shown = [];
    this.cursorRow = 0;
    const up = above > 0 ? `\x1b[${above}A` : "";
    this.write(`\r${up}${CLEAR_DOWN}` + this.draw(frame, 0));
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
    this.write(this.toTop() + CLEAR_DOWN);
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
