// Turns raw terminal output into the text a person would have seen: escape codes removed,
// carriage returns and backspaces applied. Every function here works line by line, so the
// streaming collector can apply them to any run of complete lines.

import stripAnsi from "strip-ansi";
import { isHighSurrogate, splitsPair } from "../text/code-point.ts";

/** Removes ANSI/OSC escape sequences (colours included: the model cannot see colours). */
export function stripEscapes(text: string): string {
  if (text.indexOf("\x1b") === -1 && text.indexOf("\x9b") === -1) return text;
  return stripAnsi(text);
}

/** One line (no "\n") with its carriage returns applied: each segment overwrites from column 0. */
function resolveCarriageReturns(line: string): string {
  if (line.indexOf("\r") === -1) return line;
  const [first = "", ...rest] = line.split("\r");
  let buffer = first;
  for (const segment of rest) {
    if (segment === "") continue;
    if (segment.length >= buffer.length) {
      buffer = segment;
      continue;
    }
    // A shorter segment overwrites only its own width; the old tail stays, as on a terminal.
    const cut = segment.length;
    // Half a surrogate pair would be an invalid character: a space takes its place. (Roo-Code
    // also blanks an emoji that starts right at the cut, leaving its second half alone.)
    buffer = splitsPair(buffer, cut) ? `${segment} ${buffer.slice(cut + 1)}` : segment + buffer.slice(cut);
  }
  return buffer;
}

/** Applies carriage returns line by line; "\n" characters stay exactly where they were. */
export function processCarriageReturns(input: string): string {
  if (input.indexOf("\r") === -1) return input;
  let out = "";
  let start = 0;
  while (start < input.length) {
    let end = input.indexOf("\n", start);
    if (end === -1) end = input.length;
    out += resolveCarriageReturns(input.slice(start, end));
    if (end < input.length) out += "\n";
    start = end + 1;
  }
  return out;
}

/**
 * Each backspace erases the UTF-16 unit before it. Unlike Roo-Code, a backspace at the start of a
 * line does nothing: a terminal's cursor never moves back into the previous line. An emoji takes
 * two backspaces, like its two columns on a terminal; after only one, the half left is blank.
 */
export function processBackspaces(input: string): string {
  if (input.indexOf("\b") === -1) return input;
  let out = "";
  let start = 0;
  for (;;) {
    const bs = input.indexOf("\b", start);
    if (bs === -1) return out + input.slice(start);
    out += input.slice(start, bs);
    if (out.length > 0 && out.charCodeAt(out.length - 1) !== 10) {
      out = out.slice(0, -1);
      if (out.length > 0 && isHighSurrogate(out.charCodeAt(out.length - 1))) out = `${out.slice(0, -1)} `;
    }
    start = bs + 1;
  }
}

/** Everything above, in the order a terminal effectively applies it. Keeps "\n" positions. */
export function cleanLines(text: string): string {
  return processBackspaces(processCarriageReturns(stripEscapes(text)));
}
