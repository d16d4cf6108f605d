// Makes model- or tool-controlled text safe to print on a terminal: pure.
// A prompt-injected model could otherwise write the clipboard (OSC 52), clear the screen or retitle
// the terminal through a tool label or an output summary. Escapes become visible text instead.

// C0 controls but tab and newline, DEL, C1 controls (0x80-0x9f act as CSI/OSC on some terminals),
// and the bidi overrides that can make shown text differ from what runs.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code === 0x1b) return "␛";
  if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Text with every control character made visible; tab and newline are kept. */
export function inert(text: string): string {
  return text.replace(CONTROL, visible);
}

/** Like `inert`, for one line: newlines and tabs become spaces too. */
export function inertLine(text: string): string {
  return inert(text.replace(/[\t\r\n]+/g, " "));
}

/**
 * JSON text with no character a terminal acts on. JSON.stringify escapes C0 controls but leaves
 * DEL, the C1 controls (U+009B is CSI on terminals that take 8-bit controls), the bidi overrides
 * and U+2028/U+2029 raw; escaping them too gives the same value to every JSON parser.
 */
export function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
