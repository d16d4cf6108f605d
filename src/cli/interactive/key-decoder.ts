// Raw terminal input → keys: printable text, control keys, arrows (plain and with Alt/Ctrl), the
// Shift+Enter forms terminals send, a lone ESC, and bracketed pastes (which may span many reads).

export type Key =
  | { kind: "text"; text: string }
  /** `continues`: more of an unbracketed paste that came in pieces (joined to the one before). */
  | { kind: "paste"; text: string; continues?: boolean }
  | { kind: "enter" }
  /** Shift+Enter, Alt+Enter, Ctrl-J: a new line in the prompt. */
  | { kind: "newline" }
  | { kind: "esc" }
  | { kind: "tab" }
  /** Shift+Tab: cycles the permission mode. */
  | { kind: "back-tab" }
  /** PgUp / PgDn: scroll a question too long for the screen. */
  | { kind: "page"; to: "up" | "down" }
  | { kind: "backspace" }
  | { kind: "delete" }
  | { kind: "ctrl"; name: string }
  /** `shift`: Shift+↑/↓, which the prompt takes as ↑/↓ and an approval prompt as a one-row scroll. */
  | { kind: "move"; to: "up" | "down" | "left" | "right" | "home" | "end" | "word-left" | "word-right"; shift?: true }
  | { kind: "delete-word-back" }
  /** Alt-D: delete the word after the caret. */
  | { kind: "delete-word-forward" };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

const CSI_KEYS: Record<string, Key> = {
  "\x1b[A": { kind: "move", to: "up" },
  "\x1b[B": { kind: "move", to: "down" },
  "\x1b[C": { kind: "move", to: "right" },
  "\x1b[D": { kind: "move", to: "left" },
  "\x1bOA": { kind: "move", to: "up" },
  "\x1bOB": { kind: "move", to: "down" },
  "\x1bOC": { kind: "move", to: "right" },
  "\x1bOD": { kind: "move", to: "left" },
  "\x1b[H": { kind: "move", to: "home" },
  "\x1b[F": { kind: "move", to: "end" },
  "\x1bOH": { kind: "move", to: "home" },
  "\x1bOF": { kind: "move", to: "end" },
  "\x1b[1~": { kind: "move", to: "home" },
  "\x1b[4~": { kind: "move", to: "end" },
  "\x1b[7~": { kind: "move", to: "home" },
  "\x1b[8~": { kind: "move", to: "end" },
  "\x1b[3~": { kind: "delete" },
  "\x1b[1;3D": { kind: "move", to: "word-left" },
  "\x1b[1;3C": { kind: "move", to: "word-right" },
  "\x1b[1;5D": { kind: "move", to: "word-left" },
  "\x1b[1;5C": { kind: "move", to: "word-right" },
  "\x1b[1;2A": { kind: "move", to: "up", shift: true },
  "\x1b[1;2B": { kind: "move", to: "down", shift: true },
  // Shift+Enter as kitty's keyboard protocol and xterm's modifyOtherKeys send it.
  "\x1b[13;2u": { kind: "newline" },
  "\x1b[27;2;13~": { kind: "newline" },
  "\x1b[Z": { kind: "back-tab" },
  "\x1b[5~": { kind: "page", to: "up" },
  "\x1b[6~": { kind: "page", to: "down" },
};

const ALT_KEYS: Record<string, Key> = {
  b: { kind: "move", to: "word-left" },
  f: { kind: "move", to: "word-right" },
  d: { kind: "delete-word-forward" },
  "\r": { kind: "newline" },
  "\n": { kind: "newline" },
  "\x7f": { kind: "delete-word-back" },
  "\b": { kind: "delete-word-back" },
};

const CSI = /^\x1b(\[[0-9;?]*[ -/]*[@-~]|O[A-Za-z])/;

/**
 * A key in the kitty keyboard protocol's form, `CSI code ; modifiers u` (what a terminal sends once
 * the session asked for it with `CSI > 1 u`, see KEYBOARD_ON): Esc, Ctrl- and Alt-letters, and
 * the Enter, Tab and Backspace variants that legacy bytes cannot tell apart. Undefined otherwise.
 */
export function csiUKey(seq: string): Key | undefined {
  const m = /^\x1b\[(\d+)(?::\d*)*(?:;(\d+)(?::\d+)?)?u$/.exec(seq);
  if (!m) return undefined;
  const code = Number(m[1]);
  const mods = Math.max(0, Number(m[2] ?? "1") - 1);
  const shift = (mods & 1) !== 0;
  const alt = (mods & 2) !== 0;
  const ctrl = (mods & 4) !== 0;
  if (code === 27) return { kind: "esc" };
  if (code === 13) return shift || alt || ctrl ? { kind: "newline" } : { kind: "enter" };
  if (code === 9) return shift ? { kind: "back-tab" } : { kind: "tab" };
  if (code === 127 || code === 8) return alt || ctrl ? { kind: "delete-word-back" } : { kind: "backspace" };
  const ch = String.fromCodePoint(code);
  // The control keys legacy bytes already meant something else for: Ctrl-J a new line, Ctrl-M
  // Enter, Ctrl-I Tab, Ctrl-H Backspace.
  const legacy: Record<string, Key> = {
    j: { kind: "newline" },
    m: { kind: "enter" },
    i: { kind: "tab" },
    h: { kind: "backspace" },
  };
  if (ctrl && /^[a-z]$/i.test(ch)) return legacy[ch.toLowerCase()] ?? { kind: "ctrl", name: ch.toLowerCase() };
  if (alt) return ALT_KEYS[ch];
  if (code >= 32 && !ctrl) return { kind: "text", text: shift ? ch.toUpperCase() : ch };
  return undefined;
}

/**
 * Sent at start: kitty's keyboard protocol (flag 1, disambiguate) and xterm's modifyOtherKeys
 * (level 1), so Shift+Enter arrives as a key of its own; terminals that know neither ignore both.
 * KEYBOARD_OFF undoes them on exit and suspend.
 */
export const KEYBOARD_ON = "\x1b[>1u\x1b[>4;1m";
export const KEYBOARD_OFF = "\x1b[<u\x1b[>4m";

/** A read that follows a pasted burst this soon is more of the same paste. */
export const BURST_GAP_MS = 30;

/**
 * A paste without bracketed-paste markers (a terminal that lacks them, tmux paste-buffer, a
 * program typing for the user): one read holding text, then a line break, then more text. No one
 * types a line and Enter and more within one read; a line and Enter alone is a typed prompt.
 */
export function isBurst(chunk: string): boolean {
  if (chunk.includes("\x1b")) return false;
  const br = chunk.search(/[\r\n]/);
  // Text on both sides of the break: Enter then the next prompt's first key is typing, not a paste.
  return br > 0 && /[^\r\n\t\x00-\x1f]/.test(chunk.slice(0, br)) && /[^\r\n]/.test(chunk.slice(br));
}

export class KeyDecoder {
  private paste: string | undefined;
  private lastBurst = Number.NEGATIVE_INFINITY;

  /** `now`: when the chunk was read, to join the pieces of one unbracketed paste. */
  feed(chunk: string, now = Date.now()): Key[] {
    if (this.paste === undefined && !chunk.includes("\x1b")) {
      // A lone Enter is a key even right after a paste (a quick send), never the paste's tail.
      const continues = now - this.lastBurst <= BURST_GAP_MS && chunk !== "\r";
      if (continues || isBurst(chunk)) {
        this.lastBurst = now;
        return [{ kind: "paste", text: chunk.replace(/\r\n?/g, "\n"), ...(continues ? { continues: true } : {}) }];
      }
    }
    const keys: Key[] = [];
    let s = chunk;
    while (s.length) {
      if (this.paste !== undefined) {
        const end = s.indexOf(PASTE_END);
        if (end < 0) {
          this.paste += s;
          return keys;
        }
        keys.push({ kind: "paste", text: (this.paste + s.slice(0, end)).replace(/\r\n?/g, "\n") });
        this.paste = undefined;
        s = s.slice(end + PASTE_END.length);
        continue;
      }
      if (s.startsWith(PASTE_START)) {
        this.paste = "";
        s = s.slice(PASTE_START.length);
        continue;
      }
      const c = s.charAt(0);
      if (c === "\x1b") {
        const m = CSI.exec(s);
        if (m) {
          const key = CSI_KEYS[m[0]] ?? csiUKey(m[0]);
          if (key) keys.push(key);
          s = s.slice(m[0].length);
          continue;
        }
        if (s.length === 1) {
          keys.push({ kind: "esc" });
          s = "";
          continue;
        }
        const alt = ALT_KEYS[s.charAt(1)];
        if (alt) {
          keys.push(alt);
          s = s.slice(2);
          continue;
        }
        if (s[1] === "\x1b") {
          keys.push({ kind: "esc" });
          s = s.slice(1);
          continue;
        }
        // Alt+<other>: ignored rather than typed as ESC followed by a letter.
        s = s.slice(2);
        continue;
      }
      if (c === "\r") keys.push({ kind: "enter" });
      else if (c === "\n") keys.push({ kind: "newline" });
      else if (c === "\t") keys.push({ kind: "tab" });
      else if (c === "\x7f" || c === "\b") keys.push({ kind: "backspace" });
      else if (c < " ") keys.push({ kind: "ctrl", name: String.fromCharCode(c.charCodeAt(0) + 96) });
      else {
        // A run of printable characters is one key: typing fast (or a paste without brackets).
        let end = 1;
        while (end < s.length && s.charAt(end) >= " " && s.charAt(end) !== "\x7f" && s.charAt(end) !== "\x1b") end++;
        keys.push({ kind: "text", text: s.slice(0, end) });
        s = s.slice(end);
        continue;
      }
      s = s.slice(1);
    }
    return keys;
  }
}
