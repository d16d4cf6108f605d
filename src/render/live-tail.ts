// The last line of a running tool's output, redrawn in place on a terminal.

import { truncateOneLine } from "./tool-label.ts";

export class LiveTail {
  private shown = false;
  private pending = "";

  constructor(
    private readonly write: (text: string) => void,
    private readonly columns: () => number,
    private readonly dim: (text: string) => string,
  ) {}

  update(chunk: string): void {
    const lines = (this.pending + chunk).split("\n");
    this.pending = lines.pop() ?? "";
    const last = [...lines, this.pending].reverse().find((l) => l.trim()) ?? "";
    if (!last) return;
    const width = Math.max(20, this.columns() - 4);
    this.write(`\r\x1b[2K  ${this.dim(truncateOneLine(last, width))}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.write("\r\x1b[2K");
    this.shown = false;
    this.pending = "";
  }
}
