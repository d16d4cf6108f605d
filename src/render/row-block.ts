// The cursor arithmetic of a block of lines redrawn in place under the output (the sub-agent status
// rows): how many lines the block takes once the terminal has re-wrapped it, and the one frame that
// goes back over it and draws the next. Pure, so what a resize does to it is testable without a terminal.

const UP = (n: number) => `\x1b[${n}A\r`;
export const ERASE_LINE_END = "\x1b[K";
// Only ever sent with the cursor below what was just written: erasing the whole screen from its
// top-left corner would push it into the scrollback on tmux (scroll-on-clear), duplicating rows.
export const ERASE_DOWN = "\x1b[J";

/** One line of the block and its visible width (what it takes on screen, colours aside). */
export interface BlockLine {
  text: string;
  width: number;
}

/**
 * The screen lines taken by lines of these visible widths on a terminal `columns` wide that re-wraps
 * them (tmux, most terminals): a line drawn at 100 columns takes two once the terminal is 60 wide.
 */
export function wrappedLineCount(widths: readonly number[], columns: number): number {
  const cols = Math.max(1, columns);
  return widths.reduce((sum, w) => sum + Math.max(1, Math.ceil(w / cols)), 0);
}

/**
 * One redraw, all of it for one terminal width: up over the block drawn before (`previous`, its
 * lines' widths, as re-wrapped at `columns`), then `above` (whole lines of other output, kept), the
 * new lines each clearing the rest of its line, and an erase of whatever is left below them.
 */
export function blockFrame(
  previous: readonly number[],
  columns: number,
  lines: readonly BlockLine[],
  above = "",
): string {
  const up = previous.length ? UP(wrappedLineCount(previous, columns)) : "";
  const kept = above.replace(/\n/g, `${ERASE_LINE_END}\n`);
  return up + kept + lines.map((l) => `${l.text}${ERASE_LINE_END}\n`).join("") + ERASE_DOWN;
}
