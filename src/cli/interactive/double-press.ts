// A key that acts only when pressed twice: the first press arms it for a short window and shows a
// hint, a second press of the same key inside the window acts. The hint goes when the window
// closes: a later press is a first press again.

/** How long a first press waits for the second (its hint shown as long). */
export const DOUBLE_PRESS_MS = 2000;

/**
 * The keys that arm: Ctrl-C (idle) and Ctrl-D (a turn running) exit on their second press; Esc,
 * idle, opens `/rewind` on its second on an empty prompt (`esc`) and clears the draft on another
 * (`esc-draft`), as in Claude Code.
 */
export type PressKey = "c" | "d" | "esc" | "esc-draft";

const HINTS: Record<PressKey, string> = {
  c: "press Ctrl-C again to exit",
  d: "press Ctrl-D again to exit",
  esc: "press Esc again to rewind",
  "esc-draft": "press Esc again to clear the prompt",
};

/** Whether a press at `now` is the second of `key`, given what was armed (pure). */
export function isSecondPress(
  armed: { key: PressKey; at: number } | undefined,
  key: PressKey,
  now: number,
  windowMs = DOUBLE_PRESS_MS,
): boolean {
  return armed?.key === key && now - armed.at < windowMs;
}

export class DoublePress {
  private armed: { key: PressKey; at: number } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `expired`: the window closed by itself (the hint must be drawn away). */
  constructor(
    private readonly expired: () => void,
    private readonly windowMs = DOUBLE_PRESS_MS,
    private readonly now: () => number = Date.now,
  ) {}

  arm(key: PressKey): void {
    this.disarm();
    this.armed = { key, at: this.now() };
    this.timer = setTimeout(() => {
      this.disarm();
      this.expired();
    }, this.windowMs);
  }

  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armed = undefined;
  }

  /** The key armed and still inside its window, if any. */
  armedKey(): PressKey | undefined {
    const armed = this.armed;
    return armed && isSecondPress(armed, armed.key, this.now(), this.windowMs) ? armed.key : undefined;
  }

  /** The hint while a key is armed. */
  hint(): string | undefined {
    return this.armed ? HINTS[this.armed.key] : undefined;
  }
}
