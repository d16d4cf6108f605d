// The last few lines of a running tool's output, redrawn in place on a terminal and erased when
// the tool ends, so only the one-line summary stays on screen.

import { truncateOneLine } from "./tool-label.ts";

const ERASE_LINE = "\r\x1b[2K";
const UP_AND_ERASE = "\x1b[1A\x1b[2K";

/** The newest `count` non-blank lines of `text`, oldest first: pure. */
export function lastLines(text: string, count: number): string[] {
  const out: string[] = [];
  const lines = text.split("\n");
  for (const line of lines.toReversed()) {
    if (out.length >= count) break;
    if (line.trim()) out.unshift(line);
  }
  return out;
}

export class LiveTail {
  private shown = 0;
  /** Recent output, kept short: only the last lines are ever drawn. */
  private recent = "";

  constructor(
    private readonly write: (text: string) => void,
    private readonly columns: () => number,
    private readonly dim: (text: string) => string,
    private readonly height = 3,
  ) {}

  update(chunk: string): void {
    this.recent = (this.recent + chunk).slice(-4096);
    const lines = lastLines(this.recent, this.height);
    if (!lines.length) return;
    // Cut to the width so no line wraps: a wrapped line would break the cursor arithmetic.
    const width = Math.max(20, this.columns() - 4);
    this.write(this.erase() + lines.map((l) => `  ${this.dim(truncateOneLine(l.toWellFormed(), width))}`).join("\n"));
    this.shown = lines.length;
  }

  clear(): void {
    if (this.shown) this.write(this.erase());
    this.shown = 0;
    this.recent = "";
  }

  private erase(): string {
    if (!this.shown) return ERASE_LINE;
    return ERASE_LINE + UP_AND_ERASE.repeat(this.shown - 1);
  }
}
