// What the interactive session does with each executor event: the view draws it (a list to choose
// from opens the picker instead), a long turn's end calls the user back, /clear and /resume start
// on a clean screen, a status notice is drawn away when due, and the spinner turns while work runs.

import type { Config } from "../../config/config.ts";
import type { Executor, ExecutorEvent } from "../../executor/executor.ts";
import { openPicker } from "./list-picker.ts";
import { longTurn, notification } from "./notify.ts";
import type { PromptArea } from "./prompt-area.ts";
import type { ScreenPainter } from "./screen-painter.ts";
import { resumeWindow } from "./session-replay.ts";
import type { SessionView } from "./session-view.ts";

export interface EventHost {
  notify: Config["notify"];
  out(text: string): void;
  view: SessionView;
  painter: ScreenPainter;
  area: PromptArea;
  executor(): Executor | undefined;
  /** Exit has begun: the end of the interrupted turn calls nobody back. */
  leaving(): boolean;
}

export function sessionEvents(host: EventHost): (event: ExecutorEvent) => void {
  const { view, painter } = host;
  // When the running submission started: one that took long calls the user back as it ends.
  let startedAt = 0;
  return (event) => {
    const opensPicker = event.type === "command_output" && Boolean(event.choices?.items.length);
    // A held `/name` echo goes out before anything else of its submission (before /clear's clean screen).
    if (!opensPicker) view.say(...view.takeHeldEcho());
    if (event.type === "submission_start") startedAt = Date.now();
    if (
      event.type === "submission_end" &&
      !host.leaving() &&
      longTurn(Date.now() - startedAt, host.notify.afterSeconds)
    ) {
      const status = event.outcome.status;
      host.out(notification(host.notify.kind, `synapse: ${status === "done" ? "finished" : status}`));
    }
    // `/rewind` puts the rewound prompt back into the draft, to be edited or sent again.
    if (event.type === "submission_end" && event.outcome.draft !== undefined) host.area.setDraft(event.outcome.draft);
    // /clear and /resume start on a clean screen (the old conversation scrolled up, not erased).
    if (event.type === "session_changed") {
      painter.paint();
      painter.clearScreen();
    }
    const noticeUntil = view.noticeUntil;
    // A list to choose from opens the picker instead of being printed (headless prints it).
    if (opensPicker && event.type === "command_output" && event.choices) {
      host.area.picker = openPicker(event.choices);
      host.area.pickerEcho = view.takeHeldEcho();
    } else view.handle(event);
    // A new status notice: the frame is drawn again when it is due to go.
    if (view.noticeUntil > noticeUntil) setTimeout(painter.schedule, view.noticeUntil - Date.now() + 1).unref?.();
    // /resume shows where that session left off, as -c does at start (after /clear: nothing).
    const executor = host.executor();
    if (event.type === "session_changed" && executor) view.replay(...resumeWindow(executor));
    painter.spinWhile(view.busy, Boolean(executor?.running()));
    painter.schedule();
  };
}
