// A coloured view of what Edit and Write change: removed lines red with "-", added green with "+",
// the unchanged lines they share at the start and end left out. Pure; inputs are model-controlled.

import { inertLine } from "./inert.ts";
import { fitWidth } from "./text-width.ts";
import type { Theme } from "./theme.ts";

const MAX_ROWS = 12;

/** `before`: a Write's file as it was before the call (undefined: a new file). */
export function changeRows(name: string, input: unknown, width: number, t: Theme, before?: string): string[] {
  const i = (input ?? {}) as Record<string, unknown>;
  if (name === "Edit" && typeof i.old_string === "string" && typeof i.new_string === "string") return lineDiff(i.old_string, i.new_string, width, t);
  if (name === "Write" && typeof i.content === "string") return lineDiff(before ?? "", i.content, width, t);
  return [];
}

export function lineDiff(before: string, after: string, width: number, t: Theme): string[] {
  // A file's final newline is not a line of its own.
  const a = before ? before.replace(/\n$/, "").split("\n") : [];
  const b = after ? after.replace(/\n$/, "").split("\n") : [];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const rows = [...removed.map((l) => t.red(fitWidth(`    - ${inertLine(l)}`, width))), ...added.map((l) => t.green(fitWidth(`    + ${inertLine(l)}`, width)))];
  if (rows.length <= MAX_ROWS) return rows;
  return [...rows.slice(0, MAX_ROWS), t.dim(`    … ${rows.length - MAX_ROWS} more lines (${removed.length} removed, ${added.length} added)`)];
}
