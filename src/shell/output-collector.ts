// Turns a command's raw output bytes into the text the model sees, while they stream in: decodes
// UTF-8 (invalid bytes become U+FFFD), cleans complete lines, collapses repeats and keeps only a
// head and a rolling tail, so memory follows the output limits, not the output size.

import { boundaryBefore, tailUnits, wellFormed } from "../text/code-point.ts";
import { cleanLines, processCarriageReturns, stripEscapes } from "./output-clean.ts";
import { RunLengthEncoder } from "./run-length.ts";
import { HeadTailBuffer } from "./truncate-output.ts";

export interface OutputLimits {
  maxLines: number;
  maxChars: number;
}

/** How much of one burst of output a live listener gets (it shows a tail, not a log). */
const LIVE_MAX_CHARS = 8192;

export class OutputCollector {
  private readonly decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  private readonly kept: HeadTailBuffer;
  private readonly encoder: RunLengthEncoder;
  /** The line being written (no "\n" yet), still raw. */
  private partial = "";
  /** Part of the current line was already passed on (it grew past lineCap). */
  private fragmented = false;
  /** Lines seen, before any cut or collapse: what the user is told the command printed. */
  lines = 0;
  private readonly lineCap: number;
  private ended: string | null = null;
  /** How bash names the request file in its error messages ("PATH: line 1: …"). */
  private readonly scriptPrefix: string | null;

  /**
   * `scriptPath`: the file the shell sources each command from. Bash prefixes its errors with it,
   * which would show the model an internal path; they read "bash: line 1: …" instead, as after
   * `bash -c`.
   */
  constructor(
    limits: OutputLimits,
    private readonly onOutput?: (text: string) => void,
    scriptPath?: string,
  ) {
    this.scriptPrefix = scriptPath ? `${scriptPath}: ` : null;
    this.kept = new HeadTailBuffer(limits.maxLines, limits.maxChars);
    this.encoder = new RunLengthEncoder((text) => this.kept.push(text));
    this.lineCap = Math.max(2 * limits.maxChars, 16_384);
  }

  write(bytes: Uint8Array): void {
    if (this.ended !== null) return;
    this.take(this.decoder.decode(bytes, { stream: true }));
  }

  /** Finishes the output and returns it cleaned and truncated. Later calls return the same text. */
  end(): string {
    if (this.ended !== null) return this.ended;
    this.take(this.decoder.decode());
    if (this.partial !== "") {
      const last = this.clean(this.partial);
      if (last !== "") this.lines++;
      if (this.fragmented) this.encoder.pushFragment(last);
      else this.encoder.pushLine(last);
      this.live(last);
    }
    this.partial = "";
    this.encoder.end();
    // Every step keeps surrogate pairs whole; this only guards the session against a slip.
    this.ended = wellFormed(this.kept.result());
    return this.ended;
  }

  private take(text: string): void {
    if (text === "") return;
    const nl = text.lastIndexOf("\n");
    if (nl === -1) {
      this.partial += text;
    } else {
      // Every cleaning step is line-local, so a block of whole lines is cleaned in one call.
      const block = this.clean(this.partial + text.slice(0, nl + 1));
      for (let i = block.indexOf("\n"); i !== -1; i = block.indexOf("\n", i + 1)) this.lines++;
      this.partial = text.slice(nl + 1);
      let start = 0;
      if (this.fragmented) {
        start = block.indexOf("\n") + 1;
        this.encoder.pushFragment(block.slice(0, start));
        this.fragmented = false;
      }
      while (start < block.length) {
        const end = block.indexOf("\n", start) + 1;
        this.encoder.pushLine(block.slice(start, end));
        start = end;
      }
      this.live(block);
    }
    if (this.partial.length > this.lineCap) this.compactPartial();
  }

  /**
   * Bounds a line that never ends (a progress bar redrawn with "\r" for minutes, or megabytes
   * without a newline). Text before the last "\r" is resolved at once; what is still too long is
   * passed on as a fragment. A "\r" arriving after that cannot overwrite the fragment any more:
   * the one place where the result differs from cleaning the whole output at once.
   */
  private compactPartial(): void {
    const cr = this.partial.lastIndexOf("\r");
    if (cr > 0) {
      const resolved = processCarriageReturns(stripEscapes(this.partial.slice(0, cr)));
      this.partial = resolved + this.partial.slice(cr);
    }
    if (this.partial.length <= this.lineCap) return;
    let cut = boundaryBefore(this.partial, this.partial.length - (this.lineCap >> 1));
    // Do not cut through an escape sequence: they are short, so look back a little.
    const esc = this.partial.lastIndexOf("\x1b", cut - 1);
    if (esc !== -1 && cut - esc < 64) cut = esc;
    const piece = this.clean(this.partial.slice(0, cut));
    this.partial = this.partial.slice(cut);
    this.encoder.pushFragment(piece);
    this.fragmented = true;
  }

  private clean(raw: string): string {
    const prefix = this.scriptPrefix;
    return cleanLines(prefix !== null && raw.includes(prefix) ? raw.replaceAll(prefix, "bash: ") : raw);
  }

  private live(text: string): void {
    if (!this.onOutput || text === "") return;
    if (text.length > LIVE_MAX_CHARS) {
      const from = text.indexOf("\n", text.length - LIVE_MAX_CHARS);
      text = from === -1 || from === text.length - 1 ? tailUnits(text, LIVE_MAX_CHARS) : text.slice(from + 1);
    }
    try {
      this.onOutput(wellFormed(text));
    } catch {
      // A failing listener must not lose the command's output.
    }
  }
}
