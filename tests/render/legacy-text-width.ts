// A frozen copy of src/render/text-width.ts before widths came from the runtime and text was walked by
// grapheme cluster (commit 5d62d95), kept only for tests/render/text-width-differential.test.ts.

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/y;

/** East Asian wide and emoji code points take two columns; combining marks none. */
export function charWidth(code: number): number {
  if (code < 0x300) return code < 0x20 || (code >= 0x7f && code < 0xa0) ? 0 : 1;
  if ((code >= 0x300 && code <= 0x36f) || code === 0x200b || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f))
    return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  )
    return 2;
  return 1;
}

export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, "");
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of stripAnsi(text)) w += charWidth(ch.codePointAt(0)!);
  return w;
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
  for (let i = 0; i < line.length; ) {
    ANSI.lastIndex = i;
    const esc = ANSI.exec(line);
    if (esc) {
      row += esc[0];
      if (/^\x1b\[0?m$/.test(esc[0])) active = "";
      else if (esc[0].endsWith("m")) active += esc[0];
      i += esc[0].length;
      continue;
    }
    const code = line.codePointAt(i)!;
    const ch = String.fromCodePoint(code);
    const w = charWidth(code);
    if (col + w > width) {
      if (lastSpace > 0 && ch !== " ") {
        push(row.slice(0, lastSpace), lastSpaceActive);
        row = lastSpaceActive + row.slice(lastSpace);
        col -= lastSpaceCol;
      } else {
        push(row, active);
        row = active;
        col = 0;
        if (ch === " ") {
          i += ch.length;
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
    i += ch.length;
  }
  rows.push(row);
  return rows;
}

/** Every line of `text` wrapped to `width`. */
export function wrapText(text: string, width: number): string[] {
  return text.split("\n").flatMap((l) => wrapLine(l, width));
}

/** Cut to at most `width` columns, with "…" when cut. */
export function fitWidth(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  let out = "";
  let col = 0;
  for (const ch of stripAnsi(text)) {
    const w = charWidth(ch.codePointAt(0)!);
    if (col + w > width - 1) break;
    out += ch;
    col += w;
  }
  return `${out}…`;
}
