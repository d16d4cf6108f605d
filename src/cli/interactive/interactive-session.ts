// The interactive session: a prompt on the terminal, each line a submission to the executor, the
// work drawn as it happens. Loaded only when stdin and stdout are terminals and no prompt was
// given (a dynamic import in main.ts), so the headless path never pays for any of it. This file
// only wires the parts (screen-parts.ts) to the keys (key-dispatch.ts decides, key-actions.ts
// acts), the submissions, the executor's events, the process's signals and crashes, and the exit.

import type { Config } from "../../config/config.ts";
import type { Executor } from "../../executor/executor.ts";
import { errorMessage } from "../../protocol/errors.ts";
import { openDirectTerminal } from "../../runtime/direct-terminal.ts";
import { startupMark } from "../../runtime/startup-trace.ts";
import { loadMarkdown } from "../../render/markdown.ts";
import { fitWidth, wrapText } from "../../render/text-width.ts";
import type { Command } from "../args.ts";
import { type EndOnce, codeAfterSave, endOnce, startLifecycle } from "../process-lifecycle.ts";
import { captureConsole } from "./console-notices.ts";
import { INTERACTIVE_COMMANDS } from "./interactive-commands.ts";
import { KeyHandler } from "./key-actions.ts";
import { PromptSubmitter } from "./prompt-submit.ts";
import { type ScreenParts, screenParts } from "./screen-parts.ts";
import { sessionEvents } from "./session-events.ts";
import { closeSession } from "./session-exit.ts";
import { resumeWindow } from "./session-replay.ts";
import { TypeAhead } from "./type-ahead.ts";

type RunCommand = Extract<Command, { kind: "run" }>;

/** How long exit waits for an interrupted turn to end before leaving anyway. */
const EXIT_WAIT_MS = 1500;

export async function runInteractive(config: Config, command: RunCommand): Promise<number> {
  // A terminal that cannot move its cursor gets plain lines instead of a redrawn screen.
  if (config.dumbTerminal) return (await import("./line-session.ts")).runLineSession(config, command);
  startupMark("interactive-code");
  const life = startLifecycle();
  let executor: Executor | undefined;
  // Raw mode and the size through libc: node:tty (process.stdin) loads after the first frame.
  const p = screenParts(config, command.images, () => executor, await openDirectTerminal());
  startupMark("screen-parts");
  const releaseConsole = captureConsole((lines) => {
    for (const line of lines) p.view.say(...wrapText(`  ${line}`, p.term.width()).map((l) => p.theme.dim(l)));
    if (p.state.draws) p.painter.paint();
  });
  const ending = endSequence(p, releaseConsole);
  const exit = (code: number) => {
    if (p.state.takesInput) void ending.end(code);
  };
  life.onSignal(({ code }) => exit(code));
  life.onCrash({
    before: () => {
      releaseConsole();
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
  p.term.take();
  startupMark("terminal-taken");

  // The prompt is drawn before the session opens: typing can start at once (a key typed before the
  // keys are read waits in the raw terminal). The executor and the runtime (the providers' SDKs,
  // the tools) and marked are loaded only after that first frame.
  p.painter.paint();
  startupMark("first-frame");
  p.term.listen(
    (key) => {
      if (p.state.takesInput) keys.onKey(key);
    },
    () => p.painter.resized(),
  );
  try {
    const [{ createExecutor }, { openRuntime }] = await Promise.all([
      import("../../executor/executor.ts"),
      import("../../executor/session-runtime.ts"),
      loadMarkdown(),
    ]);
    executor = await createExecutor({
      config,
      resume: command.resume,
      commands: INTERACTIVE_COMMANDS,
      open: (sink, resume) =>
        openRuntime({ config, resume, emit: sink, approve: (r) => p.approvals.ask(r), waitForSandbox: true }),
      emit: sessionEvents({ ...p, notify: config.notify, out: p.term.out, leaving: () => ending.begun() }),
    });
  } catch (err) {
    releaseConsole();
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

/**
 * The way out, run once: no key or question is taken any more, a running turn is stopped and its
 * end drawn (the partial answer marked interrupted, so the last frame left on the terminal is not
 * a spinner that looks still at work), the terminal given back, the session saved.
 */
function endSequence(p: ScreenParts, releaseConsole: () => void): EndOnce {
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
    releaseConsole();
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
