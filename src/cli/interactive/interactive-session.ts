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
import { type EndOnce, codeAfterSave, endOnce, startLifecycle } from "../process-lifecycle.ts";
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
  let executor: Executor | undefined;
  const p = screenParts(config, command.images, () => executor);
  const ending = endSequence(p);
  const exit = (code: number) => {
    if (p.state.takesInput) void ending.end(code);
  };
  life.onSignal(({ code }) => exit(code));
  life.onCrash({
    before: () => {
      if (!p.state.draws) return;
      p.state.on("failed");
      p.term.restore();
    },
    report: (err) => process.stderr.write(`\nsynapse: internal error: ${errorMessage(err)}\n`),
  });
  const submitter = new PromptSubmitter(
    { view: p.view, theme: p.theme, color: config.color, width: p.term.width, exit },
    command.images,
    config.theme,
  );
  const keys = keyHandler(p, submitter, exit);
  p.term.take(
    (key) => {
      if (p.state.takesInput) keys.onKey(key);
    },
    () => p.painter.resized(),
  );

  // The prompt is drawn before the session opens: typing can start at once.
  p.painter.paint();
  try {
    executor = await createExecutor({
      config,
      resume: command.resume,
      open: (sink, resume) =>
        openRuntime({ config, resume, emit: sink, approve: (r) => p.approvals.ask(r), waitForSandbox: true }),
      emit: sessionEvents({ ...p, notify: config.notify, out: p.term.out, leaving: () => ending.begun() }),
    });
  } catch (err) {
    p.state.on("failed");
    p.painter.clear();
    p.term.restore();
    throw err;
  }
  life.own(executor);
  p.state.on("opened");
  sayOpened(p, command.resume ? executor : undefined);
  submitter.attach(executor);
  p.painter.paint();
  return ending.done;
}

/** What the session is drawn with and keeps between keys; `executor()` is undefined until it opens. */
interface ScreenParts {
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

function screenParts(config: Config, images: readonly string[], executor: () => Executor | undefined): ScreenParts {
  const state = new SessionState();
  const term = new TerminalSetup();
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
  const painter = new ScreenPainter({ out, columns, rows, view, draws: () => state.draws, frame });
  return { config, state, term, theme, history, area, view, approvals, press, painter, executor };
}

/**
 * The way out, run once: no key or question is taken any more, a running turn is stopped and its
 * end drawn (the partial answer marked interrupted, so the last frame left on the terminal is not
 * a spinner that looks still at work), the terminal given back, the session saved.
 */
function endSequence(p: ScreenParts): EndOnce {
  return endOnce(async (requested) => {
    p.state.on("leave");
    p.press.disarm();
    p.area.candidates = [];
    p.area.search = undefined;
    p.approvals.cancel();
    const executor = p.executor();
    if (executor) await stopRunningTurn(executor);
    p.painter.paint();
    p.state.on("released");
    p.painter.finish();
    p.term.restore();
    if (!executor) return requested;
    const closed = await closeSession(executor);
    p.term.out(closed.line);
    return codeAfterSave(requested, closed);
  });
}

function keyHandler(p: ScreenParts, submitter: PromptSubmitter, exit: (code: number) => void): KeyHandler {
  const { painter, term, state } = p;
  return new KeyHandler({
    ...p,
    width: term.width,
    submitter,
    typeAhead: new TypeAhead(),
    everywhere: p.history.load(),
    exit,
    suspend: () => {
      // The live region goes (no stale prompt above the shell's job notice) and what the shell
      // prints while we are stopped stays: on `fg` the region is drawn again below it.
      painter.clear();
      if (term.suspend(() => state.draws)) painter.redrawHere();
    },
  });
}

function sayWelcome(view: SessionView, theme: Theme, width: number, images: readonly string[]): void {
  view.say(theme.dim(fitWidth(welcomeLine(), width)));
  if (!images.length) return;
  const names = images.join(", ").replace(/[\x00-\x1f\x7f]/g, " ");
  const what = images.length === 1 ? "image" : "images";
  view.say(theme.dim(fitWidth(`  ${what} ${names} will go with your first message`, width)));
}

/** `resumed`: the executor of a resumed session, whose last messages are shown again. */
function sayOpened({ view, theme, term, config }: ScreenParts, resumed?: Executor): void {
  // -y / bypass: said once in the transcript too (the status line keeps showing it in red).
  if (config.permissionMode === "bypass") {
    const warning = "⚠ bypass mode: every tool call runs without asking (only --deny rules still apply)";
    view.say(theme.bold(theme.red(fitWidth(warning, term.width()))));
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
