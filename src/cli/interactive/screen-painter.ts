// Drawing the interactive screen: lines the view has finished go to the scrollback once, the live
// region is redrawn (at most once a frame's time for a burst of events), and the spinner turns
// while work is in progress.

import { type Frame, ScreenDiff } from "../../render/screen-diff.ts";
import type { SessionView } from "./session-view.ts";

const PAINT_MS = 16;
const SPIN_MS = 100;

export interface PaintHost {
  out(text: string): void;
  columns(): number;
  rows(): number;
  view: SessionView;
  /** False once the terminal is given back: nothing is drawn again. */
  draws(): boolean;
  /** The live region at this spinner step. */
  frame(spin: number): Frame;
  /** Work waits on the user (a tool call's question is open): the spinner stands still. */
  paused(): boolean;
}

export class ScreenPainter {
  private readonly screen: ScreenDiff;
  private paintTimer: ReturnType<typeof setTimeout> | undefined;
  private spinTimer: ReturnType<typeof setInterval> | undefined;
  private spin = 0;

  constructor(private readonly host: PaintHost) {
    this.screen = new ScreenDiff(host.out, host.columns());
  }

  frame(): Frame {
    return this.host.frame(this.spin);
  }

  paint = (): void => {
    if (this.paintTimer) clearTimeout(this.paintTimer);
    this.paintTimer = undefined;
    if (!this.host.draws()) return;
    // The terminal is already narrower or wider than what was drawn (its resize event is still
    // settling): a diff now would be laid out over rows the terminal has rewrapped.
    if (this.host.columns() !== this.screen.width()) {
      this.resized();
      return;
    }
    const committed = this.host.view.takeCommitted();
    const f = this.frame();
    if (committed.length) this.screen.commit(committed, f);
    else this.screen.render(f);
  };

  /** A paint soon, one for a burst of changes. */
  schedule = (): void => {
    this.paintTimer ??= setTimeout(this.paint, PAINT_MS);
  };

  /**
   * The spinner turns while the view shows work; it stops once no turn runs either. While the work
   * waits on the user it stands still and nothing is repainted for it, until the answer.
   */
  spinWhile(busy: boolean, running: boolean): void {
    if (busy && !this.spinTimer) {
      this.spinTimer = setInterval(() => {
        if (this.host.paused()) return;
        this.spin++;
        this.schedule();
      }, SPIN_MS);
    } else if (!busy && this.spinTimer && !running) {
      clearInterval(this.spinTimer);
      this.spinTimer = undefined;
    }
  }

  /** A clean screen (Ctrl-L, /clear, /resume): what was above scrolls up, not erased. */
  clearScreen(): void {
    this.screen.clearScreen(this.host.rows(), this.frame());
  }

  /**
   * One write at the new size: lines finished since the last paint join the transcript that is
   * written again, rather than being painted first with the old width's row counts (which left
   * ghost rows on screen until the resize's own write came).
   */
  resized(): void {
    if (!this.host.draws()) return;
    if (this.paintTimer) clearTimeout(this.paintTimer);
    this.paintTimer = undefined;
    const committed = this.host.view.takeCommitted();
    this.screen.resize(this.host.columns(), this.host.rows(), this.frame(), committed);
  }

  /** The whole live region again where the cursor is (after `fg`). */
  redrawHere(): void {
    this.screen.redrawHere(this.host.columns(), this.frame());
  }

  /** The live region goes (before the terminal is lent to the shell, or on a failed open). */
  clear(): void {
    this.screen.clear();
  }

  /** The last frame stays as it is, the cursor below it; no timer is left. */
  finish(): void {
    if (this.paintTimer) clearTimeout(this.paintTimer);
    if (this.spinTimer) clearInterval(this.spinTimer);
    this.screen.finish();
  }
}
