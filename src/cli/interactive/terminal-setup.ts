// The terminal the interactive session draws on: raw mode, bracketed paste and the keyboard modes,
// keys decoded from stdin, resizes settled, Ctrl-Z's stop and continue, and giving it all back.

import { writeSync } from "node:fs";
import type { DirectTerminal } from "../../runtime/direct-terminal.ts";
import { KEYBOARD_OFF, KEYBOARD_ON, type Key, KeyDecoder } from "./key-decoder.ts";

// Bracketed paste, and the keyboard modes that tell Shift+Enter from Enter (key-decoder.ts).
const PASTE_ON = `\x1b[?2004h${KEYBOARD_ON}`;
const PASTE_OFF = `\x1b[?2004l${KEYBOARD_OFF}`;
/** A burst of resize events (a window dragged) is drawn once, this long after it settles. */
export const RESIZE_SETTLE_MS = 16;

export class TerminalSetup {
  private input: typeof process.stdin | undefined;
  private readonly decoder = new KeyDecoder();
  private resizeTimer: ReturnType<typeof setTimeout> | undefined;
  /** The size when the terminal was taken (the first frame's), while no resize is listened to. */
  private takenSize: string | undefined;

  /**
   * `direct`: raw mode and size through libc (runtime/direct-terminal.ts), so that process.stdin
   * and process.stdout (node:tty, node:stream: ~10 ms) are made only after the first frame.
   */
  constructor(private readonly direct?: DirectTerminal) {}

  private get stdin(): typeof process.stdin {
    this.input ??= process.stdin;
    return this.input;
  }

  /** Writes to the terminal; one that went away (SIGHUP follows) leaves nothing to draw on. */
  out = (text: string): void => {
    try {
      writeSync(1, text);
    } catch {
      // The terminal went away.
    }
  };

  columns = (): number => Math.max(10, this.direct?.size()?.columns || process.stdout.columns || 80);
  rows = (): number => Math.max(5, this.direct?.size()?.rows || process.stdout.rows || 24);
  /** One column short of the edge: a row that fills the last column leaves the cursor pending a wrap. */
  width = (): number => this.columns() - 1;

  /** Takes the terminal: raw, bracketed paste and the keyboard modes on; keys wait for `listen`. */
  take(): void {
    this.rawMode(true);
    this.out(PASTE_ON);
    this.takenSize = `${this.columns()}x${this.rows()}`;
  }

  /** Each decoded key goes to `onKey`, each settled resize to `onResize`. */
  listen(onKey: (key: Key) => void, onResize: () => void): void {
    this.stdin.setEncoding("utf8");
    this.stdin.on("data", (chunk: string) => {
      for (const key of this.decoder.feed(chunk)) onKey(key);
    });
    this.stdin.resume();
    const resized = () => {
      this.resizeTimer ??= setTimeout(() => {
        this.resizeTimer = undefined;
        onResize();
      }, RESIZE_SETTLE_MS);
    };
    process.stdout.on("resize", resized);
    // A resize between the first frame and now went unheard.
    if (this.takenSize !== `${this.columns()}x${this.rows()}`) resized();
  }

  /** Gives the terminal back as it was. */
  restore(): void {
    this.out(PASTE_OFF);
    this.rawMode(false);
    this.input?.pause();
  }

  private rawMode(on: boolean): void {
    if (this.direct && !on) {
      this.direct.restore();
      return;
    }
    if (this.direct?.raw()) return;
    try {
      this.stdin.setRawMode(on);
    } catch {
      // already gone
    }
  }

  /**
   * Ctrl-Z: the terminal goes back to the shell as it was (a running turn goes on meanwhile), and
   * is taken again when the shell continues us (`fg`). The stop takes effect before kill()
   * returns, so the lines after it run on continuing; where no shell does job control (an
   * orphaned process group) the kernel drops the signal and they run at once instead.
   * `resumed` is false when the session ended meanwhile (nothing is taken again).
   */
  suspend(resumed: () => boolean): boolean {
    this.restore();
    process.kill(process.pid, "SIGTSTP");
    if (!resumed()) return false;
    this.rawMode(true);
    this.input?.resume();
    this.out(PASTE_ON);
    return true;
  }
}
