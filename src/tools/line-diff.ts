// A line diff (Myers' O(ND) algorithm) cut into hunks with line numbers and a few lines of context,
// as `diff -u` shows them. Pure: the tools compute it from the text they already hold and hand it
// on as data; the interactive view only draws it.

import type { DiffHunk, DiffLine, LineDiff, ToolDisplay } from "../protocol/tool-display.ts";
import { itemAt } from "../text/checked-index.ts";

/** Beyond this many differences the edit script is not searched for (prefix and suffix only). */
const MAX_EDIT_DISTANCE = 500;

/** A file's lines; its final newline is not a line of its own. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r?\n$/, "").split(/\r?\n/);
}

/** The shortest edit script from `a` to `b`, as one op per line in order. */
export function diffOps(a: readonly string[], b: readonly string[]): DiffLine[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const ops: DiffLine[] = [];
  let i = 0;
  let j = 0;
  const push = (op: DiffLine["op"]) => {
    if (op === " ") ops.push({ op, text: itemAt(a, i), old: i + 1, new: j + 1 });
    else if (op === "-") ops.push({ op, text: itemAt(a, i), old: i + 1 });
    else ops.push({ op, text: itemAt(b, j), new: j + 1 });
    if (op !== "+") i++;
    if (op !== "-") j++;
  };
  for (let k = 0; k < head; k++) push(" ");
  for (const op of myers(midA, midB)) push(op);
  for (let k = 0; k < tail; k++) push(" ");
  return ops;
}

/** Myers' greedy forward search with a kept trace; past MAX_EDIT_DISTANCE: all removed, all added. */
function myers(a: readonly string[], b: readonly string[]): DiffLine["op"][] {
  const n = a.length;
  const m = b.length;
  if (!n || !m) return [...Array<"-">(n).fill("-"), ...Array<"+">(m).fill("+")];
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && itemAt(v, offset + k - 1) < itemAt(v, offset + k + 1));
      let x = down ? itemAt(v, offset + k + 1) : itemAt(v, offset + k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, offset, n, m, a, b);
    }
  }
  return [...Array<"-">(n).fill("-"), ...Array<"+">(m).fill("+")];
}

function backtrack(
  trace: Int32Array[],
  offset: number,
  n: number,
  m: number,
  a: readonly string[],
  b: readonly string[],
): DiffLine["op"][] {
  const ops: DiffLine["op"][] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = itemAt(trace, d);
    const k = x - y;
    const down = k === -d || (k !== d && itemAt(v, offset + k - 1) < itemAt(v, offset + k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : itemAt(v, offset + prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY && a[x - 1] === b[y - 1]) {
      ops.push(" ");
      x--;
      y--;
    }
    if (d > 0) ops.push(down ? "+" : "-");
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** The changes between two texts as hunks, each with up to `context` unchanged lines around it. */
export function lineDiff(before: string, after: string, context = 3): LineDiff {
  const ops = diffOps(splitLines(before), splitLines(after));
  const changed = ops.map((o, k) => (o.op !== " " ? k : -1)).filter((k) => k >= 0);
  const hunks: DiffHunk[] = [];
  const hunk = (from: number, to: number): DiffHunk => ({
    lines: ops.slice(Math.max(0, from - context), Math.min(ops.length, to + context + 1)),
  });
  let start = -1;
  let end = -1;
  for (const k of changed) {
    if (start >= 0 && k - context <= end + context + 1) {
      end = k;
      continue;
    }
    if (start >= 0) hunks.push(hunk(start, end));
    start = k;
    end = k;
  }
  if (start >= 0) hunks.push(hunk(start, end));
  return { hunks, added: ops.filter((o) => o.op === "+").length, removed: ops.filter((o) => o.op === "-").length };
}

/** Texts longer than this are not diffed for the view (the change is still made and reported). */
const DIFF_MAX_CHARS = 1 << 20;

/** What Edit and Write hand the view: the change as hunks, or undefined for texts too large. */
export function changeDisplay(path: string, before: string, after: string, created: boolean): ToolDisplay | undefined {
  if (before.length > DIFF_MAX_CHARS || after.length > DIFF_MAX_CHARS) return undefined;
  return { kind: "diff", path, created, ...lineDiff(before, after) };
}
