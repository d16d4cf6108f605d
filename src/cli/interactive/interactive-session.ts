// The interactive session: a prompt on the terminal, each line a submission to the executor, the
// work drawn as it happens. Loaded only when stdin and stdout are terminals and no prompt was
// given (a dynamic import in main.ts), so the headless path never pays for any of it.

import { writeSync } from "node:fs";
import type { Config } from "../../config/config.ts";
import { COMMANDS, commandNames } from "../../executor/command-registry.ts";
import { type Executor, type ExecutorEvent, createExecutor } from "../../executor/executor.ts";
import { openRuntime } from "../../executor/session-runtime.ts";
import { EXIT, errorMessage } from "../../protocol/errors.ts";
import { ScreenDiff, type Frame } from "../../render/screen-diff.ts";
import { fitWidth } from "../../render/text-width.ts";
import { makeTheme } from "../../render/theme.ts";
import { inertLine } from "../../render/inert.ts";
import { THEME_NAMES, type ThemeName } from "../../config/config.ts";
import type { Command } from "../args.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../tools/types.ts";
import { ApprovalPrompt } from "./approval-prompt.ts";
import { commonPrefix, complete } from "./completion.ts";
import { HistoryFile } from "./history-file.ts";
import { HistorySearch } from "./history-search.ts";
import { longTurn, notification } from "./notify.ts";
import { menuRows, slashMenu } from "./slash-menu.ts";
import { type PickerState, openPicker, pickerKey, pickerRows } from "./list-picker.ts";
import { KEYBOARD_OFF, KEYBOARD_ON, type Key, KeyDecoder } from "./key-decoder.ts";
import { PromptEditor } from "./prompt-editor.ts";
import { editPrompt } from "./prompt-keys.ts";
import { composeFrame } from "./session-frame.ts";
import { nextMode } from "./safety-status.ts";
import { FRESH_QUESTION_MS, TypeAhead, routeKey } from "./type-ahead.ts";
import { welcomeLine } from "./welcome.ts";
import { SessionView, resumeWindow } from "./session-view.ts";
import { closeSession, exitCodeAfter } from "./session-exit.ts";

type RunCommand = Extract<Command, { kind: "run" }>;

const THEME_COMMAND = { name: "theme", summary: "the session's colours: dark, light or colour-blind" };

// Bracketed paste, and the keyboard modes that tell Shift+Enter from Enter (key-decoder.ts).
const PASTE_ON = `\x1b[?2004h${KEYBOARD_ON}`;
const PASTE_OFF = `\x1b[?2004l${KEYBOARD_OFF}`;
/** How long a first Ctrl-C / Ctrl-D waits for the second press that exits (its hint as long). */
const DOUBLE_PRESS_MS = 2000;
const PAINT_MS = 16;
const SPIN_MS = 100;
/** How long exit waits for an interrupted turn to end before leaving anyway. */
const EXIT_WAIT_MS = 1500;

export async function runInteractive(config: Config, command: RunCommand): Promise<number> {
  // A terminal that cannot move its cursor gets plain lines instead of a redrawn screen.
  if (config.dumbTerminal) return (await import("./line-session.ts")).runLineSession(config, command);
  // One object, changed in place by /theme: the view and prompts hold it.
  const theme = makeTheme(config.color, config.theme);
  let themeName = config.theme;
  const out = (text: string) => {
    try {
      writeSync(1, text);
    } catch {
      // The terminal went away (SIGHUP follows): nothing left to draw on.
    }
  };
  const columns = () => Math.max(10, process.stdout.columns || 80);
  const rows = () => Math.max(5, process.stdout.rows || 24);
  // One column short of the edge: a row that fills the last column leaves the cursor pending a wrap.
  const width = () => columns() - 1;

  const history = new HistoryFile(config.home);
  // ↑ walks the prompts sent in this directory; Ctrl-R searches those of every directory.
  const editor = new PromptEditor(history.load(config.cwd));
  const everywhere = history.load();
  let search: HistorySearch | undefined;
  // `/model` or `/resume` with no argument: the list to choose from, while it is open.
  let picker: PickerState | undefined;
  const typeAhead = new TypeAhead();
  const view = new SessionView(theme, width, config.toolResultSummaryLimit);
  view.say(theme.dim(fitWidth(welcomeLine(), width())));
  let pendingImages = [...command.images];
  if (pendingImages.length) {
    const names = pendingImages.join(", ").replace(/[\x00-\x1f\x7f]/g, " ");
    view.say(
      theme.dim(
        fitWidth(
          `  ${pendingImages.length === 1 ? "image" : "images"} ${names} will go with your first message`,
          width(),
        ),
      ),
    );
  }
  const screen = new ScreenDiff(out, columns());
  const names = commandNames();
  let executor: Executor | undefined;
  let hint: string | undefined;
  let candidates: string[] = [];
  // A first Ctrl-C (idle) or Ctrl-D (a turn running) arms exit for DOUBLE_PRESS_MS, hint shown.
  let armed: { key: "c" | "d"; at: number } | undefined;
  let armTimer: ReturnType<typeof setTimeout> | undefined;
  let spin = 0;
  let paintTimer: ReturnType<typeof setTimeout> | undefined;
  let spinTimer: ReturnType<typeof setInterval> | undefined;
  const early: { id: string; text: string }[] = [];
  let finish!: (code: number) => void;
  const done = new Promise<number>((resolve) => (finish = resolve));
  let exiting = false;
  // Set as exit begins: while a running turn winds down no key or new question is taken.
  let leaving = false;
  // A tool call waiting for the user's yes or no: it takes the prompt's place and its keys.
  let approval: { prompt: ApprovalPrompt; request: ApprovalRequest; resolve: (a: ApprovalAnswer) => void } | undefined;
  let approvals: Promise<unknown> = Promise.resolve();
  const approve = (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    const answered = approvals.then(
      () =>
        new Promise<ApprovalAnswer>((resolve) => {
          // A session on its way out answers no, or its close would wait on the question forever.
          if (exiting || leaving) return resolve({ no: "the session ended" });
          const prompt = new ApprovalPrompt(request, theme);
          approval = { prompt, request, resolve };
          paint();
          out(notification(config.notify.kind, `synapse: allow ${request.tool}?`));
          setTimeout(() => {
            prompt.armEnter();
            if (approval?.prompt === prompt) paint();
          }, FRESH_QUESTION_MS);
        }),
    );
    approvals = answered;
    return answered;
  };

  const disarm = () => {
    if (armTimer) clearTimeout(armTimer);
    armTimer = undefined;
    armed = undefined;
    hint = undefined;
  };
  const arm = (key: "c" | "d") => {
    disarm();
    armed = { key, at: Date.now() };
    hint = `press Ctrl-${key.toUpperCase()} again to exit`;
    // The hint goes when the window closes: a later press is a first press again.
    armTimer = setTimeout(() => {
      disarm();
      paint();
    }, DOUBLE_PRESS_MS);
  };
  const armedFor = (key: "c" | "d") => armed?.key === key && Date.now() - armed.at < DOUBLE_PRESS_MS;

  // The command list while a `/name` is typed, and its picked row.
  let menuPick = 0;
  const menu = () => (approval || search || picker ? [] : slashMenu(editor.text, [...COMMANDS, THEME_COMMAND]));
  const frame = (): Frame => {
    const items = menu();
    return composeFrame({
      theme,
      width: width(),
      rows: rows(),
      editor,
      view,
      spin,
      candidates,
      hint,
      menu: picker
        ? pickerRows(picker)
        : items.length
          ? menuRows(items, Math.min(menuPick, items.length - 1))
          : undefined,
      facts: executor?.facts(),
      approval: approval?.prompt,
      startMode: config.permissionMode,
    });
  };

  const paint = () => {
    if (paintTimer) clearTimeout(paintTimer);
    paintTimer = undefined;
    if (exiting) return;
    const committed = view.takeCommitted();
    const f = frame();
    if (committed.length) screen.commit(committed, f);
    else screen.render(f);
  };
  const schedule = () => {
    paintTimer ??= setTimeout(paint, PAINT_MS);
  };

  // When the running submission started: one that took long calls the user back as it ends.
  let startedAt = 0;
  const onEvent = (event: ExecutorEvent) => {
    if (event.type === "submission_start") startedAt = Date.now();
    if (event.type === "submission_end" && !leaving && longTurn(Date.now() - startedAt, config.notify.afterSeconds)) {
      const status = event.outcome.status;
      out(notification(config.notify.kind, `synapse: ${status === "done" ? "finished" : status}`));
    }
    // /clear and /resume start on a clean screen (the old conversation scrolled up, not erased).
    if (event.type === "session_changed") {
      paint();
      screen.clearScreen(rows(), frame());
    }
    const noticeUntil = view.noticeUntil;
    // A list to choose from opens the picker instead of being printed (headless prints it).
    if (event.type === "command_output" && event.choices?.items.length) picker = openPicker(event.choices);
    else view.handle(event);
    // A new status notice: the frame is drawn again when it is due to go.
    if (view.noticeUntil > noticeUntil) setTimeout(schedule, view.noticeUntil - Date.now() + 1).unref?.();
    // /resume shows where that session left off, as -c does at start (after /clear: nothing).
    if (event.type === "session_changed" && executor) view.replay(...resumeWindow(executor));
    if (view.busy && !spinTimer) {
      spinTimer = setInterval(() => {
        spin++;
        schedule();
      }, SPIN_MS);
    } else if (!view.busy && spinTimer && !executor?.running()) {
      clearInterval(spinTimer);
      spinTimer = undefined;
    }
    schedule();
  };

  const submit = (text: string) => {
    // `/theme`: the session's colours, a matter of this terminal only (the executor never sees it).
    const themeArg = /^\s*\/theme(?:\s+(\S*))?\s*$/.exec(text);
    if (themeArg) {
      const name = themeArg[1] || undefined;
      if (name && !THEME_NAMES.includes(name as ThemeName)) {
        view.say(theme.red(fitWidth(`unknown theme ${inertLine(name)}: one of ${THEME_NAMES.join(", ")}`, width())));
      } else {
        if (name) Object.assign(theme, makeTheme(config.color, name as ThemeName));
        themeName = (name as ThemeName | undefined) ?? themeName;
        view.say(
          theme.dim(
            fitWidth(
              `  theme: ${themeName} (${THEME_NAMES.join(", ")}; SYNAPSE_THEME sets it for every session)`,
              width(),
            ),
          ),
        );
      }
      return;
    }
    if (!executor) {
      const id = `early-${early.length}`;
      early.push({ id, text });
      view.queue(id, text);
      return;
    }
    const busy = executor.running() !== undefined || executor.pending() > 0;
    // `--image` files go with the first message for the model (a /command takes none).
    // `!command` runs in the session's shell (bash mode); its output goes to the model with the next prompt.
    const shellMode = text.trimStart().startsWith("!");
    let images: string[] | undefined;
    if (pendingImages.length && !shellMode && !text.trimStart().startsWith("/")) {
      images = pendingImages;
      pendingImages = [];
    }
    const id = executor.submit({ text, images, shellMode, attachMentions: true });
    if (busy) view.queue(id, text);
    void executor.waitFor(id).then((outcome) => {
      if (outcome.exit) void exit(EXIT.ok);
    });
  };

  const exit = async (code: number) => {
    if (exiting || leaving) return;
    leaving = true;
    disarm();
    candidates = [];
    approval?.resolve({ no: "the session ended" });
    approval = undefined;
    // A running turn is stopped first and its end drawn (the partial answer marked interrupted),
    // so the last frame left on the terminal is not a spinner that looks still at work.
    const running = executor?.running();
    if (executor && running) {
      executor.interruptAll();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([executor.waitFor(running), new Promise((r) => (timer = setTimeout(r, EXIT_WAIT_MS)))]);
      clearTimeout(timer);
    }
    paint();
    exiting = true;
    if (paintTimer) clearTimeout(paintTimer);
    if (spinTimer) clearInterval(spinTimer);
    screen.finish();
    restoreTerminal();
    let line = "";
    if (executor) {
      const closed = await closeSession(executor);
      line = closed.line;
      code = exitCodeAfter(code, closed);
    }
    out(line);
    finish(code);
  };

  // An interrupt means the work went the wrong way: inputs queued behind it come back into the
  // prompt (before the draft) to be edited or sent again, rather than starting on their own.
  const interruptTurn = () => {
    if (!executor) return;
    const back = view.withdrawQueued();
    for (const q of back) executor.interrupt(q.id);
    executor.interrupt();
    if (!back.length) return;
    editor.text = [...back.map((q) => q.text), editor.text].filter((x) => x).join("\n");
    editor.cursor = editor.text.length;
  };

  // Shift+Tab: the next permission mode, from the next tool call on. Bypass is in the cycle only
  // for a session that started in it.
  const cycleMode = () => {
    if (!executor) return;
    const mode = nextMode(executor.runtime.permissionMode, config.permissionMode === "bypass");
    executor.runtime.setPermissionMode(mode);
    view.say(
      theme.dim(
        fitWidth(
          `  permission mode: ${mode}${mode === "bypass" ? " (every tool call runs without asking)" : ""}`,
          width(),
        ),
      ),
    );
  };

  const tabComplete = () => {
    const prompts = executor?.runtime.mcpPromptCommands() ?? [];
    const c = complete(editor.text, editor.cursor, config.cwd, prompts.length ? [...names, ...prompts] : names);
    if (!c || !c.candidates.length) {
      candidates = [];
      return;
    }
    const chosen = c.candidates.length === 1 ? c.candidates[0] : commonPrefix(c.candidates);
    if (chosen.length > c.to - c.from) {
      editor.text = editor.text.slice(0, c.from) + chosen + editor.text.slice(c.to);
      editor.cursor = c.from + chosen.length;
    }
    candidates = c.candidates.length > 1 ? c.candidates.map((x) => x.trim()) : [];
  };

  // Ctrl-R's search takes the keys that shape it; any other key takes the match into the prompt
  // and then acts as usual (false: go on with the key).
  const searchKey = (s: HistorySearch, key: Key): boolean => {
    const show = () => {
      editor.text = s.match() ?? s.draft;
      editor.cursor = s.match() === undefined ? editor.text.length : s.matchIndex();
      hint = s.label();
    };
    const end = (text: string) => {
      search = undefined;
      hint = undefined;
      editor.text = text;
      editor.cursor = text.length;
    };
    if (key.kind === "text" || key.kind === "paste") s.type(key.text.replace(/\n/g, " "));
    else if (key.kind === "backspace") s.backspace();
    else if (key.kind === "ctrl" && key.name === "r") s.older();
    else if (key.kind === "esc" || (key.kind === "ctrl" && (key.name === "g" || key.name === "c"))) end(s.draft);
    else if (key.kind === "enter") end(s.match() ?? s.draft);
    else {
      end(s.match() ?? s.draft);
      return false;
    }
    if (search) show();
    return true;
  };

  const onKey = (key: Key) => {
    const now = Date.now();
    // Esc and Ctrl-C always reach the question (they answer no); other keys of a draft still being
    // typed when it appeared go on into the draft until the user pauses.
    const stopKey = key.kind === "esc" || (key.kind === "ctrl" && key.name === "c");
    const route =
      approval &&
      routeKey({
        stopKey,
        questionTakes: approval.prompt.takes(key),
        continuesDraft: typeAhead.continues(now, editor.isEmpty()),
      });
    if (route === "draft") {
      // Only draft edits: Tab, Ctrl-D and the session's other keys wait for the answer.
      typeAhead.typed(now);
      if (editPrompt(editor, key)) paint();
      return;
    }
    if (approval && route === "question") {
      const answer = approval.prompt.handle(key);
      if (answer !== undefined) {
        const { request, resolve } = approval;
        approval = undefined;
        const stop = typeof answer === "object" && answer.stop === true;
        const said =
          answer === "yes"
            ? "allowed once"
            : answer === "always"
              ? `allowed: ${request.rule} for this session`
              : stop
                ? "rejected by the user; the turn stopped"
                : `refused${answer.no ? `: ${answer.no}` : ""}`;
        view.say(theme.dim(fitWidth(`  ⎿ ${request.tool} ${said}`.replace(/[\x00-\x1f\x7f]/g, " "), width())));
        // Esc / Ctrl-C: the turn ends here (the model gets the rejection, not another go), as in
        // Claude Code. Interrupted first, so the answer finds the turn's signal already aborted.
        if (stop) interruptTurn();
        resolve(answer);
      }
      paint();
      return;
    }
    if (picker) {
      const { command } = picker.choices;
      const outcome = pickerKey(picker, key);
      picker = outcome.kind === "open" ? outcome.state : undefined;
      if (outcome.kind === "chosen") submit(`/${command} ${outcome.value}`);
      paint();
      return;
    }
    if (search && searchKey(search, key)) {
      paint();
      return;
    }
    typeAhead.typed(now);
    if (key.kind !== "ctrl" || (key.name !== "c" && key.name !== "d")) disarm();
    if (key.kind !== "tab") candidates = [];
    const items = menu();
    if (items.length && key.kind === "move" && (key.to === "up" || key.to === "down")) {
      menuPick = (Math.min(menuPick, items.length - 1) + (key.to === "up" ? items.length - 1 : 1)) % items.length;
      paint();
      return;
    }
    if (items.length && (key.kind === "tab" || key.kind === "enter")) {
      // Tab takes the picked command into the prompt (to add its arguments); Enter runs it.
      const name = items[Math.min(menuPick, items.length - 1)]!.name;
      menuPick = 0;
      editor.text = key.kind === "tab" ? `/${name} ` : `/${name}`;
      editor.cursor = editor.text.length;
      if (key.kind === "tab") {
        paint();
        return;
      }
    }
    if (editPrompt(editor, key)) {
      menuPick = 0;
      paint();
      return;
    }
    switch (key.kind) {
      case "enter": {
        // `\` then Enter continues the prompt on a new line.
        if (editor.text.slice(0, editor.cursor).endsWith("\\")) {
          editor.backspace();
          editor.insert("\n");
          break;
        }
        const text = editor.take();
        if (!text.trim()) break;
        editor.remember(text);
        history.append(text, config.cwd);
        if (everywhere.at(-1) !== text) everywhere.push(text);
        submit(text);
        break;
      }
      case "esc":
        if (executor?.running()) interruptTurn();
        break;
      case "tab":
        tabComplete();
        break;
      case "back-tab":
        cycleMode();
        break;
      case "ctrl":
        switch (key.name) {
          case "c": {
            if (!editor.isEmpty()) {
              editor.clear();
              disarm();
            } else if (executor?.running()) {
              interruptTurn();
            } else if (armedFor("c")) {
              void exit(EXIT.ok);
              return;
            } else {
              arm("c");
            }
            break;
          }
          case "d":
            // On an empty prompt Ctrl-D leaves; while a turn runs it asks for a second press first.
            if (!editor.isEmpty()) editor.deleteForward();
            else if (!executor?.running() || armedFor("d")) {
              void exit(EXIT.ok);
              return;
            } else arm("d");
            break;
          case "o":
            view.expandLast();
            break;
          case "r":
            search = new HistorySearch(everywhere, editor.text);
            hint = search.label();
            break;
          case "l":
            screen.clearScreen(rows(), frame());
            break;
          case "z":
            suspend();
            return;
        }
        break;
    }
    paint();
  };

  // ---- the terminal -----------------------------------------------------------------------------
  const stdin = process.stdin;
  const decoder = new KeyDecoder();
  const restoreTerminal = () => {
    out(PASTE_OFF);
    try {
      stdin.setRawMode(false);
    } catch {
      // already gone
    }
    stdin.pause();
  };
  // Ctrl-Z: the terminal goes back to the shell as it was (a running turn goes on meanwhile), and
  // is taken again, redrawn whole, when the shell continues us (`fg`). The stop takes effect
  // before kill() returns, so the next lines run on continuing; where no shell does job control
  // (an orphaned process group) the kernel drops the signal and they run at once instead.
  const suspend = () => {
    // The live region goes (no stale prompt above the shell's job notice) and what the shell
    // prints while we are stopped stays: on `fg` the region is drawn again below it.
    screen.clear();
    restoreTerminal();
    process.kill(process.pid, "SIGTSTP");
    if (exiting) return;
    stdin.setRawMode(true);
    stdin.resume();
    out(PASTE_ON);
    screen.redrawHere(columns(), frame());
  };
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.on("data", (chunk: string) => {
    for (const key of decoder.feed(chunk)) {
      if (exiting || leaving) return;
      onKey(key);
    }
  });
  stdin.resume();
  out(PASTE_ON);
  // A burst of resize events (a window dragged) is drawn once, at the size it settles on.
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  process.stdout.on("resize", () => {
    resizeTimer ??= setTimeout(() => {
      resizeTimer = undefined;
      if (exiting) return;
      paint();
      screen.resize(columns(), rows(), frame());
    }, PAINT_MS);
  });
  for (const [signal, code] of [
    ["SIGTERM", EXIT.terminated],
    ["SIGHUP", EXIT.hangup],
    ["SIGINT", EXIT.interrupted],
  ] as const) {
    process.on(signal, () => void exit(code));
  }
  process.on("exit", () => executor?.killNow());
  const crash = (err: unknown) => {
    if (!exiting) {
      exiting = true;
      restoreTerminal();
    }
    process.stderr.write(`\nsynapse: internal error: ${errorMessage(err)}\n`);
    executor?.killNow();
    process.exit(EXIT.failed);
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);

  // The prompt is drawn before the session opens: typing can start at once.
  paint();
  try {
    executor = await createExecutor({
      config,
      resume: command.resume,
      open: (sink, resume) => openRuntime({ config, resume, emit: sink, approve }),
      emit: onEvent,
    });
  } catch (err) {
    exiting = true;
    screen.clear();
    restoreTerminal();
    throw err;
  }
  // -y / bypass: said once in the transcript too (the status line keeps showing it in red).
  if (config.permissionMode === "bypass") {
    view.say(
      theme.bold(
        theme.red(
          fitWidth("⚠ bypass mode: every tool call runs without asking (only --deny rules still apply)", width()),
        ),
      ),
    );
  }
  if (command.resume) {
    view.replay(...resumeWindow(executor));
    view.say(theme.dim(`  resumed session ${executor.runtime.sessionId}`));
  }
  for (const { id, text } of early.splice(0)) {
    view.unqueue(id);
    submit(text);
  }
  paint();
  return done;
}
