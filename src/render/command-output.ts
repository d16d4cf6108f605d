// What a command printed, under its tool row, as Claude Code shows it: the first lines (ten for a
// user's own `!command`, which you ran to read; three for the model's), then how many more and the
// key that shows them. Pure.

import { inertLine } from "./inert.ts";
import { fitWidth } from "./text-width.ts";
import type { Theme } from "./theme.ts";

/** How many lines of a `!command`'s output the transcript shows; Ctrl-O shows every one. */
export const SHOWN_COMMAND_LINES = 10;
/** How many lines of a model's command's output its row shows. */
export const SHOWN_CALL_LINES = 3;

/**
 * The rows for `output` at `width`: at most `count` lines, one row each (cut, never wrapped, so a
 * row is a line), the first after `⎿`. `total` is the command's true line count (its output may
 * have been cut short).
 */
export function commandOutputRows(
  output: string,
  total: number,
  width: number,
  t: Theme,
  count = SHOWN_COMMAND_LINES,
): string[] {
  const lines = output.replace(/\n+$/, "").split("\n");
  const shown = lines.slice(0, count);
  const rows = shown.map((line, i) => fitWidth(`${i === 0 ? "  ⎿ " : "    "}${inertLine(line)}`, width));
  const more = Math.max(total, lines.length) - shown.length;
  if (more > 0) rows.push(t.dim(fitWidth(`    … +${more} line${more === 1 ? "" : "s"} (ctrl+o to expand)`, width)));
  return rows;
}
