// Draws the line diff Edit and Write hand back (structured, computed by the tool: this view never
// reads a file): each hunk's lines with their line number, "-" removed in red, "+" added in
// green, unchanged context dim, hunks apart with "⋮". Pure; the lines are model-controlled text.

import type { DiffLine, ToolDisplay } from "../protocol/tool-display.ts";
import { inertLine } from "./inert.ts";
import { fitWidth } from "./text-width.ts";
import type { Theme } from "./theme.ts";

const MAX_ROWS = 16;

type Diff = Extract<ToolDisplay, { kind: "diff" }>;

export function diffRows(diff: Diff, width: number, t: Theme): string[] {
  const numbers = diff.hunks.flatMap((h) => h.lines.map((l) => l.new ?? l.old ?? 0));
  const digits = String(Math.max(1, ...numbers)).length;
  const row = (l: DiffLine) => {
    const n = String(l.op === "-" ? l.old : l.new).padStart(digits);
    const text = fitWidth(`    ${n} ${l.op} ${inertLine(l.text)}`, width);
    return l.op === "-" ? t.red(text) : l.op === "+" ? t.green(text) : t.dim(text);
  };
  const rows: string[] = [];
  diff.hunks.forEach((hunk, i) => {
    if (i > 0) rows.push(t.dim(`    ${" ".repeat(digits)} ⋮`));
    for (const l of hunk.lines) rows.push(row(l));
  });
  if (rows.length <= MAX_ROWS) return rows;
  const more = `    … ${rows.length - MAX_ROWS} more lines (${diff.removed} removed, ${diff.added} added in all)`;
  return [...rows.slice(0, MAX_ROWS), t.dim(more)];
}
