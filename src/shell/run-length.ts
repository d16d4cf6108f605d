// Collapses runs of identical lines into one line and a count, only where that is shorter.
// Same rule as Roo-Code's applyRunLengthEncoding, quirk included (see RunLengthEncoder.flush).

const marker = (repeats: number) => `<previous line repeated ${repeats} additional times>\n`;

/** Streaming form: lines go in one at a time, encoded text comes out through `emit`. */
export class RunLengthEncoder {
  private previous: string | null = null;
  private repeats = 0;

  constructor(private readonly emit: (text: string) => void) {}

  /** A whole line with its "\n" (only the very last line of the output may lack one). */
  pushLine(line: string): void {
    if (this.previous === null) {
      this.previous = line;
    } else if (line === this.previous) {
      this.repeats++;
    } else {
      this.flush(false);
      this.previous = line;
    }
  }

  /** Text that is not a whole line (a piece of an over-long line): it ends any run. */
  pushFragment(text: string): void {
    if (this.previous !== null) this.flush(false);
    this.previous = null;
    this.emit(text);
  }

  end(): void {
    if (this.previous !== null) this.flush(true);
    this.previous = null;
  }

  private flush(atEnd: boolean): void {
    const line = this.previous ?? "";
    const repeats = this.repeats;
    this.repeats = 0;
    if (repeats === 0) {
      this.emit(line);
      return;
    }
    // Roo-Code weighs a final run against one copy fewer than a run in the middle; kept so the
    // output matches theirs byte for byte.
    const replaced = line.length * (atEnd ? repeats : repeats + 1);
    const desc = marker(repeats);
    this.emit(desc.length < replaced ? line + desc : line.repeat(repeats + 1));
  }
}

export function applyRunLengthEncoding<T extends string | null | undefined>(content: T): T {
  if (!content) return content;
  let out = "";
  const encoder = new RunLengthEncoder((text) => (out += text));
  let start = 0;
  while (start < content.length) {
    const nl = content.indexOf("\n", start);
    const end = nl === -1 ? content.length : nl + 1;
    encoder.pushLine(content.slice(start, end));
    start = end;
  }
  encoder.end();
  return out as T;
}
