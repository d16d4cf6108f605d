// Rows the live view (session-view.ts) and a resumed session's replay (session-replay.ts) draw
// alike, so a replayed prompt or call looks as it did when it ran.

import { inert } from "../../render/inert.ts";
import { wrapText } from "../../render/text-width.ts";
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
