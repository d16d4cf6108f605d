// Rows the live view (session-view.ts) and a resumed session's replay (session-replay.ts) draw
// alike, so a replayed prompt or call looks as it did when it ran.

import type { ToolDisplay } from "../../protocol/tool-display.ts";
import { commandOutputRows } from "../../render/command-output.ts";
import { diffRows } from "../../render/diff-view.ts";
import { inert, inertLine } from "../../render/inert.ts";
import { fitWidth, wrapText } from "../../render/text-width.ts";
import type { Theme } from "../../render/theme.ts";

/** Glyphs that tell a failed call from a good one without colour (NO_COLOR, copied text). */
export const OK_GLYPH = "●";
export const FAILED_GLYPH = "✗";

/** A submitted prompt as the transcript shows it: its first six lines, wrapped, and a count of the rest. */
export function echo(text: string, width: number, t: Theme): string[] {
  const lines = inert(text).split("\n");
  const shown = lines.slice(0, 6).flatMap((l) => wrapText(l, width - 2));
  const rows = shown.map((l, i) => (i === 0 ? `${t.bold("›")} ${l}` : `  ${l}`));
  if (lines.length > 6) rows.push(t.dim(`  … ${lines.length - 6} more lines`));
  return rows;
}

/** A finished call's row: its glyph, its label, and a failed command's exit code ("✗ Bash(false) · exit 1"). */
export function finishedCallRow(
  label: string,
  isError: boolean,
  display: ToolDisplay | undefined,
  w: number,
  t: Theme,
) {
  const code = display?.kind === "command" ? display.exit_code : null;
  const note = code !== null && code !== 0 ? ` · exit ${code}` : "";
  const glyph = isError ? t.red(FAILED_GLYPH) : t.green(OK_GLYPH);
  return `${glyph} ${t.bold(fitWidth(label, w - 2 - note.length))}${isError ? t.red(note) : note}`;
}

/**
 * Under a finished call's row: a command's first `shownLines` lines of what it printed, as Claude
 * Code's row shows them, or the call's one-line summary; then an edit's diff.
 */
export function callResultRows(
  call: { summary: string; isError: boolean; display: ToolDisplay | undefined; printed: string | undefined },
  shownLines: number,
  w: number,
  t: Theme,
): string[] {
  const summary = fitWidth(`  ⎿ ${inertLine(call.summary)}`, w);
  const lines = call.display?.kind === "command" ? call.display.lines : 0;
  const rows = call.printed
    ? commandOutputRows(call.printed, lines, w, t, shownLines)
    : [call.isError ? t.red(summary) : t.dim(summary)];
  if (!call.isError && call.display?.kind === "diff") rows.push(...diffRows(call.display, w, t));
  return rows;
}
