// A line the user sent: `/theme` handled here, anything else to the executor — held back while
// the session opens, queued behind a running turn, with the `--image` files on the first message.

import type { ThemeName } from "../../config/config.ts";
import type { Executor } from "../../executor/executor.ts";
import { EXIT } from "../../protocol/errors.ts";
import { fitWidth } from "../../render/text-width.ts";
import { type Theme, makeTheme } from "../../render/theme.ts";
import type { SessionView } from "./session-view.ts";
import { themeCommand } from "./theme-command.ts";

export interface SubmitHost {
  view: SessionView;
  /** One object, changed in place by /theme: the view and prompts hold it. */
  theme: Theme;
  color: boolean;
  width(): number;
  /** A submission asked to end the session (`/exit`). */
  exit(code: number): void;
}

export class PromptSubmitter {
  private executor: Executor | undefined;
  private readonly early: { id: string; text: string }[] = [];
  private images: string[];

  constructor(
    private readonly host: SubmitHost,
    images: readonly string[],
    private themeName: ThemeName,
  ) {
    this.images = [...images];
  }

  /** The session is open: the lines typed while it opened go now, in order. */
  attach(executor: Executor): void {
    this.executor = executor;
    for (const { id, text } of this.early.splice(0)) {
      this.host.view.unqueue(id);
      this.submit(text);
    }
  }

  /** `echo: false`: a picker's choice, sent as a command the user never typed, is not shown as one. */
  submit(text: string, { echo = true }: { echo?: boolean } = {}): void {
    if (this.themed(text)) return;
    const executor = this.executor;
    const view = this.host.view;
    if (!executor) {
      const id = `early-${this.early.length}`;
      this.early.push({ id, text });
      view.queue(id, text);
      return;
    }
    const busy = executor.running() !== undefined || executor.pending() > 0;
    // `--image` files go with the first message for the model (a /command takes none).
    // `!command` runs in the session's shell (bash mode); its output goes to the model with the next prompt.
    const shellMode = text.trimStart().startsWith("!");
    let images: string[] | undefined;
    if (this.images.length && !shellMode && !text.trimStart().startsWith("/")) {
      images = this.images;
      this.images = [];
    }
    const id = executor.submit({ text, images, shellMode, attachMentions: true });
    if (!echo) view.unechoed(id);
    if (busy) view.queue(id, text);
    void executor.waitFor(id).then((outcome) => {
      if (outcome.exit) this.host.exit(EXIT.ok);
    });
  }

  private themed(text: string): boolean {
    const { theme, view, width, color } = this.host;
    const reply = themeCommand(text, this.themeName);
    if (reply.kind === "other") return false;
    if (reply.kind === "unknown") {
      view.say(theme.red(fitWidth(reply.line, width())));
      return true;
    }
    if (reply.changed) Object.assign(theme, makeTheme(color, reply.name));
    this.themeName = reply.name;
    view.say(theme.dim(fitWidth(reply.line, width())));
    return true;
  }
}
