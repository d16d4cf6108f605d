// What the interactive session draws with and keeps between keys, put together once: the phase,
// the terminal, the theme, the prompt's place, the view, the questions, the double press and the
// painter that draws their frame. The welcome lines are the view's first.

import type { Config } from "../../config/config.ts";
import type { Executor } from "../../executor/executor.ts";
import type { Frame } from "../../render/screen-diff.ts";
import type { DirectTerminal } from "../../runtime/direct-terminal.ts";
import { fitWidth } from "../../render/text-width.ts";
import { type Theme, makeTheme } from "../../render/theme.ts";
import { ApprovalQueue } from "./approval-queue.ts";
import { DoublePress } from "./double-press.ts";
import { HistoryFile } from "./history-file.ts";
import { notification } from "./notify.ts";
import { PromptArea } from "./prompt-area.ts";
import { PromptEditor } from "./prompt-editor.ts";
import { ScreenPainter } from "./screen-painter.ts";
import { composeFrame } from "./session-frame.ts";
import { SessionState } from "./session-state.ts";
import { SessionView } from "./session-view.ts";
import { TerminalSetup } from "./terminal-setup.ts";
import { welcomeLine } from "./welcome.ts";

/** What the session is drawn with and keeps between keys; `executor()` is undefined until it opens. */
export interface ScreenParts {
  config: Config;
  state: SessionState;
  term: TerminalSetup;
  /** One object, changed in place by /theme: the view and prompts hold it. */
  theme: Theme;
  history: HistoryFile;
  area: PromptArea;
  view: SessionView;
  approvals: ApprovalQueue;
  press: DoublePress;
  painter: ScreenPainter;
  executor(): Executor | undefined;
}

export function screenParts(
  config: Config,
  images: readonly string[],
  executor: () => Executor | undefined,
  direct?: DirectTerminal,
): ScreenParts {
  const state = new SessionState();
  const term = new TerminalSetup(direct);
  const theme = makeTheme(config.color, config.theme);
  const history = new HistoryFile(config.home);
  // ↑ walks the prompts sent in this directory; Ctrl-R searches those of every directory.
  const area = new PromptArea(new PromptEditor(history.load(config.cwd)));
  const view = new SessionView(theme, term.width, config.toolResultSummaryLimit);
  sayWelcome(view, theme, term.width(), images);
  const approvals = new ApprovalQueue({
    theme,
    asking: () => state.takesInput,
    shown: () => painter.paint(),
    notify: (request) => term.out(notification(config.notify.kind, `synapse: allow ${request.tool}?`)),
  });
  const press = new DoublePress(() => painter.paint());
  const frame = (spin: number): Frame =>
    composeFrame({
      theme,
      width: term.width(),
      rows: term.rows(),
      editor: area.editor,
      view,
      spin,
      candidates: area.candidates,
      hint: area.search ? area.search.label() : press.hint(),
      menu: area.rows(approvals.current !== undefined),
      facts: executor()?.facts(),
      approval: approvals.current?.prompt,
      startMode: config.permissionMode,
    });
  const { out, columns, rows } = term;
  const paused = () => approvals.current !== undefined;
  const painter = new ScreenPainter({ out, columns, rows, view, draws: () => state.draws, frame, paused });
  return { config, state, term, theme, history, area, view, approvals, press, painter, executor };
}

function sayWelcome(view: SessionView, theme: Theme, width: number, images: readonly string[]): void {
  view.say(theme.dim(fitWidth(welcomeLine(), width)));
  if (!images.length) return;
  const names = images.join(", ").replace(/[\x00-\x1f\x7f]/g, " ");
  const what = images.length === 1 ? "image" : "images";
  view.say(theme.dim(fitWidth(`  ${what} ${names} will go with your first message`, width)));
}
