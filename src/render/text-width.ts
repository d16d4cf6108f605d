// Column widths of terminal text and wrapping to a width, with ANSI colour sequences counted as
// zero wide and carried across the break, so a wrapped coloured line stays coloured: pure. Widths come
// from the runtime (Bun.stringWidth in the binary) and text is walked by grapheme cluster, so an emoji
// with a skin tone or a ZWJ family is never split across rows or cut in half.

import stripAnsiSequences from "strip-ansi";
import { runtime } from "../runtime/runtime.ts";

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
let segmenter: Intl.Segmenter | undefined;

/** The columns one code point takes (0 for controls and combining marks, 2 for wide ones). */
export function charWidth(code: number): number {
  return runtime.stringWidth(String.fromCodePoint(code));
}

/** `text` without ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return stripAnsiSequences(text);
}

/** The columns `text` takes; escape sequences take none. */
export function textWidth(text: string): number {
  return runtime.stringWidth(text);
}

type Piece = { esc: string } | { text: string; width: number };

/** `line` as escape sequences and grapheme clusters, each cluster with its width. */
function* pieces(line: string): Generator<Piece> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  let from = 0;
  const plain = function* (to: number): Generator<Piece> {
    if (to <= from) return;
    for (const { segment } of segmenter?.segment(line.slice(from, to)) ?? []) {
      yield { text: segment, width: runtime.stringWidth(segment) };
    }
  };
  for (const m of line.matchAll(ANSI)) {
    yield* plain(m.index);
    yield { esc: m[0] };
    from = m.index + m[0].length;
  }
  yield* plain(line.length);
}

/**
 * Splits one line (no newlines) into rows of at most `width` columns. Breaks at the last space
 * that fits when there is one, else mid-word. Open colour is closed at each row end and reopened.
 */
export function wrapLine(line: string, width: number): string[] {
  width = Math.max(1, width);
  if (textWidth(line) <= width) return [line];
  const rows: string[] = [];
  let row = "";
  let col = 0;
  let active = "";
  let lastSpace = -1; // index in `row` just after a space, and the column there
  let lastSpaceCol = 0;
  let lastSpaceActive = "";
  const push = (text: string, openAtEnd: string) => rows.push(openAtEnd ? `${text}\x1b[0m` : text);
  for (const piece of pieces(line)) {
    if ("esc" in piece) {
      row += piece.esc;
      if (/^\x1b\[0?m$/.test(piece.esc)) active = "";
      else if (piece.esc.endsWith("m")) active += piece.esc;
      continue;
    }
    const { text: ch, width: w } = piece;
    if (col + w > width) {
      if (lastSpace > 0 && ch !== " ") {
        push(row.slice(0, lastSpace), lastSpaceActive);
        row = lastSpaceActive + row.slice(lastSpace);
        col -= lastSpaceCol;
      }
      // No space to break at, or what follows the space still leaves no room: break here.
      if (col + w > width) {
        push(row, active);
        row = active;
        col = 0;
        if (ch === " ") {
          lastSpace = -1;
          continue;
        }
      }
      lastSpace = -1;
    }
    row += ch;
    col += w;
    if (ch === " ") {
      lastSpace = row.length;
      lastSpaceCol = col;
      lastSpaceActive = active;
    }
  }
  rows.push(row);
  return rows;
}

/**
 * `prefix` then `body` wrapped to `width`, the rows after the first indented under the body's
 * start rather than the prefix's (a numbered choice's second row starts under its words).
 */
export function wrapHanging(prefix: string, body: string, width: number): string[] {
  const indent = textWidth(prefix);
  if (indent >= width - 4) return wrapLine(prefix + body, width);
  const pad = " ".repeat(indent);
  return wrapLine(body, width - indent).map((row, i) => (i === 0 ? prefix : pad) + row);
}

/**
 * One line of a listing wrapped to `width`: a two-column line ("  /help    list the commands",
 * "version:  0.1.0") goes on under its second column, any other under its own indent, so a
 * narrow terminal does not run the rows of a /help or /status back to its left edge.
 */
export function wrapListing(line: string, width: number): string[] {
  if (textWidth(line) <= width) return [line];
  const columns = /^(\s*\S.*?\s{2,})(\S.*)$/.exec(line);
  if (columns?.[1] && columns[2] && textWidth(columns[1]) <= width / 2)
    return wrapHanging(columns[1], columns[2], width);
  const lead = /^\s*/.exec(line)?.[0] ?? "";
  return lead && lead.length <= width / 2 ? wrapHanging(lead, line.slice(lead.length), width) : wrapLine(line, width);
}

/** Every line of `text` wrapped to `width`. */
export function wrapText(text: string, width: number): string[] {
  return text.split("\n").flatMap((l) => wrapLine(l, width));
}

/** Cut to at most `width` columns, with "…" when cut (never inside a grapheme cluster). */
export function fitWidth(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  let out = "";
  let col = 0;
  for (const piece of pieces(stripAnsi(text))) {
    if ("esc" in piece) continue;
    if (col + piece.width > width - 1) break;
    out += piece.text;
    col += piece.width;
  }
  return `${out}…`;
}
