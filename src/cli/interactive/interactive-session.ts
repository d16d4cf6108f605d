// The interactive session: a prompt on the terminal, each line a submission to the executor, the
// work drawn as it happens. Loaded only when stdin and stdout are terminals and no prompt was
// given (a dynamic import in main.ts), so the headless path never pays for any of it. This file
// only wires the parts: the phase (session-state.ts), the terminal, the painter, the keys
// (key-dispatch.ts decides, key-actions.ts acts), the questions, the submissions and the events.

import type { Config } from "../../config/config.ts";
import { type Executor, createExecutor } from "../../executor/executor.ts";
import { openRuntime } from "../../executor/session-runtime.ts";
import { errorMessage } from "../../protocol/errors.ts";
import type { Frame } from "../../render/screen-diff.ts";
import { fitWidth } from "../../render/text-width.ts";
import { type Theme, makeTheme } from "../../render/theme.ts";
import type { Command } from "../args.ts";
import { codeAfterSave, endOnce, startLifecycle } from "../process-lifecycle.ts";
import { ApprovalQueue } from "./approval-queue.ts";
import { DoublePress } from "./double-press.ts";
import { HistoryFile } from "./history-file.ts";
import { KeyHandler } from "./key-actions.ts";
import { notification } from "./notify.ts";
import { PromptArea } from "./prompt-area.ts";
import { PromptEditor } from "./prompt-editor.ts";
import { PromptSubmitter } from "./prompt-submit.ts";
import { ScreenPainter } from "./screen-painter.ts";
import { composeFrame } from "./session-frame.ts";
import { sessionEvents } from "./session-events.ts";
import { closeSession } from "./session-exit.ts";
import { SessionState } from "./session-state.ts";
import { SessionView, resumeWindow } from "./session-view.ts";
import { TerminalSetup } from "./terminal-setup.ts";
import { TypeAhead } from "./type-ahead.ts";
import { welcomeLine } from "./welcome.ts";

type RunCommand = Extract<Command, { kind: "run" }>;

/** How long exit waits for an interrupted turn to end before leaving anyway. */
const EXIT_WAIT_MS = 1500;

export async function runInteractive(config: Config, command: RunCommand): Promise<number> {
  // A terminal that cannot move its cursor gets plain lines instead of a redrawn screen.
  if (config.dumbTerminal) return (await import("./line-session.ts")).runLineSession(config, command);
  const life = startLifecycle();
  const state = new SessionState();
  const term = new TerminalSetup();
  // One object, changed in place by /theme: the view and prompts hold it.
  const theme = makeTheme(config.color, config.theme);
  const history = new HistoryFile(config.home);
  // ↑ walks the prompts sent in this directory; Ctrl-R searches those of every directory.
  const area = new PromptArea(new PromptEditor(history.load(config.cwd)));
  const view = new SessionView(theme, term.width, config.toolResultSummaryLimit);
  sayWelcome(view, theme, term.width(), command.images);
  let executor: Executor | undefined;
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
      facts: executor?.facts(),
      approval: approvals.current?.prompt,
      startMode: config.permissionMode,
    });
  const painter = new ScreenPainter({
    out: term.out,
    columns: term.columns,
    rows: term.rows,
    view,
    draws: () => state.draws,
    frame,
  });

  const ending = endOnce(async (requested) => {
    state.on("leave");
    press.disarm();
    area.candidates = [];
    area.search = undefined;
    approvals.cancel();
    // A running turn is stopped first and its end drawn (the partial answer marked interrupted),
    // so the last frame left on the terminal is not a spinner that looks still at work.
    if (executor) await stopRunningTurn(executor);
    painter.paint();
    state.on("released");
    painter.finish();
    term.restore();
    if (!executor) return requested;
    const closed = await closeSession(executor);
    term.out(closed.line);
    return codeAfterSave(requested, closed);
  });
  const exit = (code: number) => {
    if (state.takesInput) void ending.end(code);
  };
  life.onSignal(({ code }) => exit(code));
  life.onCrash({
    before: () => {
      if (!state.draws) return;
      state.on("failed");
      term.restore();
    },
    report: (err) => process.stderr.write(`\nsynapse: internal error: ${errorMessage(err)}\n`),
  });

  const submitter = new PromptSubmitter(
    { view, theme, color: config.color, width: term.width, exit },
    command.images,
    config.theme,
  );
  const keys = new KeyHandler({
    config,
    theme,
    width: term.width,
    view,
    area,
    press,
    painter,
    approvals,
    submitter,
    typeAhead: new TypeAhead(),
    history,
    everywhere: history.load(),
    executor: () => executor,
    exit,
    suspend: () => {
      // The live region goes (no stale prompt above the shell's job notice) and what the shell
      // prints while we are stopped stays: on `fg` the region is drawn again below it.
      painter.clear();
      if (term.suspend(() => state.draws)) painter.redrawHere();
    },
  });
  term.take(
    (key) => {
      if (state.takesInput) keys.onKey(key);
    },
    () => painter.resized(),
  );

  // The prompt is drawn before the session opens: typing can start at once.
  painter.paint();
  try {
    executor = await createExecutor({
      config,
      resume: command.resume,
      open: (sink, resume) => openRuntime({ config, resume, emit: sink, approve: (r) => approvals.ask(r) }),
      emit: sessionEvents({
        notify: config.notify,
        out: term.out,
        view,
        painter,
        area,
        executor: () => executor,
        leaving: () => ending.begun(),
      }),
    });
  } catch (err) {
    state.on("failed");
    painter.clear();
    term.restore();
    throw err;
  }
  life.own(executor);
  state.on("opened");
  sayOpened(view, theme, term.width(), config, command.resume ? executor : undefined);
  submitter.attach(executor);
  painter.paint();
  return ending.done;
}

function sayWelcome(view: SessionView, theme: Theme, width: number, images: readonly string[]): void {
  view.say(theme.dim(fitWidth(welcomeLine(), width)));
  if (!images.length) return;
  const names = images.join(", ").replace(/[\x00-\x1f\x7f]/g, " ");
  const what = images.length === 1 ? "image" : "images";
  view.say(theme.dim(fitWidth(`  ${what} ${names} will go with your first message`, width)));
}

/** `resumed`: the executor of a resumed session, whose last messages are shown again. */
function sayOpened(view: SessionView, theme: Theme, width: number, config: Config, resumed?: Executor): void {
  // -y / bypass: said once in the transcript too (the status line keeps showing it in red).
  if (config.permissionMode === "bypass") {
    const warning = "⚠ bypass mode: every tool call runs without asking (only --deny rules still apply)";
    view.say(theme.bold(theme.red(fitWidth(warning, width))));
  }
  if (resumed) {
    view.replay(...resumeWindow(resumed));
    view.say(theme.dim(`  resumed session ${resumed.runtime.sessionId}`));
  }
}

/** Interrupts the running turn and waits (a while) for its end to be drawn. */
async function stopRunningTurn(executor: Executor): Promise<void> {
  const running = executor.running();
  if (!running) return;
  executor.interruptAll();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, EXIT_WAIT_MS);
  });
  await Promise.race([executor.waitFor(running), late]);
  clearTimeout(timer);
}
