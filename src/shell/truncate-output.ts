// Keeps long output readable and bounded: the head and the tail, with a marker saying how much
// was left out between them. Same rule as Roo-Code's truncateOutput, except that a cut never
// splits a surrogate pair (the character goes to the omitted part instead).

import { boundaryAfter, boundaryBefore } from "../text/code-point.ts";

const HEAD_SHARE = 0.2;

export function charMarker(omitted: number): string {
  return `\n[...${omitted} characters omitted...]\n`;
}

/**
 * When the text is over `characterLimit` (UTF-16 units), the first 20% and last 80% of the limit
 * are kept (a character the cut would halve is left out whole, and counted as omitted);
 * otherwise, over `lineLimit` lines, the first 20% and last 80% of the lines. A limit of 0 or
 * undefined means none.
 */
export function truncateOutput(content: string, lineLimit?: number, characterLimit?: number): string {
  if (!lineLimit && !characterLimit) return content;
  if (characterLimit && content.length > characterLimit) {
    const headEnd = boundaryBefore(content, Math.floor(characterLimit * HEAD_SHARE));
    const tailStart = boundaryAfter(
      content,
      content.length - (characterLimit - Math.floor(characterLimit * HEAD_SHARE)),
    );
    return content.slice(0, headEnd) + charMarker(tailStart - headEnd) + content.slice(tailStart);
  }
  if (!lineLimit) return content;
  let total = 1;
  for (let i = content.indexOf("\n"); i !== -1; i = content.indexOf("\n", i + 1)) total++;
  if (total <= lineLimit) return content;
  const headLines = Math.floor(lineLimit * HEAD_SHARE);
  const tailLines = lineLimit - headLines;
  let headEnd = 0;
  for (let n = 0; n < headLines; n++) headEnd = content.indexOf("\n", headEnd) + 1;
  let tailStart = content.length;
  for (let n = 0; n < tailLines; n++) tailStart = content.lastIndexOf("\n", tailStart - 1);
  return `${content.slice(0, headEnd)}\n[...${total - lineLimit} lines omitted...]\n\n${content.slice(tailStart + 1)}`;
}

/**
 * The streaming side of truncateOutput: remembers the first `limit` characters and a rolling
 * window of the last ones, so memory follows the limit rather than the output size.
 */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private total = 0;

  constructor(
    private readonly lineLimit: number,
    private readonly charLimit: number,
  ) {}

  push(text: string): void {
    this.total += text.length;
    if (this.head.length < this.charLimit) this.head += text.slice(0, this.charLimit - this.head.length);
    this.tail += text;
    // Trimming only at twice the limit keeps appends cheap (amortised constant time).
    if (this.tail.length > 2 * this.charLimit) this.tail = this.tail.slice(this.tail.length - this.charLimit);
  }

  get length(): number {
    return this.total;
  }

  /** Same result as truncateOutput(all text pushed, lineLimit, charLimit). */
  result(): string {
    // Within the character limit the whole text is still in `head`.
    if (this.total <= this.charLimit) return truncateOutput(this.head, this.lineLimit, this.charLimit);
    // `head` holds more than the head share, so the unit after the cut is there to look at.
    const headShare = Math.floor(this.charLimit * HEAD_SHARE);
    const head = this.head.slice(0, boundaryBefore(this.head, headShare));
    const tail = this.tail.slice(boundaryAfter(this.tail, this.tail.length - (this.charLimit - headShare)));
    return head + charMarker(this.total - head.length - tail.length) + tail;
  }
}
