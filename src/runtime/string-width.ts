// Terminal column width where the runtime has no native measure (Deno; Bun has Bun.stringWidth): per
// grapheme cluster, the widest code point in it, so a ZWJ family, a flag or a skin-toned emoji is one
// two-column character, and combining marks, joiners and variation selectors add nothing.

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
let segmenter: Intl.Segmenter | undefined;

/** East Asian wide and emoji code points take two columns; controls and combining marks none. */
export function codePointWidth(code: number): number {
  if (code < 0x300) return code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0xad ? 0 : 1;
  if (
    (code >= 0x300 && code <= 0x36f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2060 && code <= 0x2064) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    code === 0xfeff
  )
    return 0;
  if (code >= 0x1f3fb && code <= 0x1f3ff) return 2; // skin-tone modifiers: wide when they stand alone
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f1e6 && code <= 0x1f1ff) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** The columns `text` takes in a terminal; ANSI colour and OSC sequences take none. */
export function portableStringWidth(text: string): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  let width = 0;
  for (const { segment } of segmenter.segment(text.replace(ANSI, ""))) {
    // VS16 asks for the emoji presentation, which terminals draw two columns wide.
    let widest = segment.includes("\ufe0f") ? 2 : 0;
    for (const ch of segment) widest = Math.max(widest, codePointWidth(ch.codePointAt(0) ?? 0));
    width += widest;
  }
  return width;
}
