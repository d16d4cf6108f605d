// What a user's own `!command` printed, under its tool row: the first lines (you ran it to read
// them, so one summary line is not enough), then how many more and the key that shows them. Pure.

import { inertLine } from "./inert.ts";
import { fitWidth } from "./text-width.ts";
import type { Theme } from "./theme.ts";

/** How many lines of a `!command`'s output the transcript shows; Ctrl-O shows every one. */
export const SHOWN_COMMAND_LINES = 10;

/**
 * The rows for `output` at `width`: one per line (cut, never wrapped, so a row is a line), the
 * first after `⎿`. `total` is the command's true line count (its output may have been cut short).
 */
export function commandOutputRows(output: string, total: number, width: number, t: Theme): string[] {
  const lines = output.replace(/\n+$/, "").split("\n");
  const shown = lines.slice(0, SHOWN_COMMAND_LINES);
  const rows = shown.map((line, i) => fitWidth(`${i === 0 ? "  ⎿ " : "    "}${inertLine(line)}`, width));
  const more = Math.max(total, lines.length) - shown.length;
  if (more > 0) rows.push(t.dim(fitWidth(`    … +${more} line${more === 1 ? "" : "s"} (Ctrl-O shows all)`, width)));
  return rows;
}
