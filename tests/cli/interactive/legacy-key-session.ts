// The key handling of runInteractive as it was before the split into key-dispatch.ts, key-actions.ts,
// double-press.ts, approval-queue.ts, prompt-area.ts and the rest (as of commit 1e2aa39): the same
// closure, its terminal, signals and executor start left out, kept only as the reference of
// key-handling-differential.test.ts.

import type { Config } from "../../../src/config/config.ts";
import { THEME_NAMES, type ThemeName } from "../../../src/config/config.ts";
import { COMMANDS, commandNames } from "../../../src/executor/command-registry.ts";
import type { Executor } from "../../../src/executor/executor.ts";
import type { Choices } from "../../../src/executor/slash-command.ts";
import { EXIT } from "../../../src/protocol/errors.ts";
import { inertLine } from "../../../src/render/inert.ts";
import { type Frame, ScreenDiff } from "../../../src/render/screen-diff.ts";
import { fitWidth } from "../../../src/render/text-width.ts";
import { type Theme, makeTheme } from "../../../src/render/theme.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../../src/tools/types.ts";
import { ApprovalPrompt } from "../../../src/cli/interactive/approval-prompt.ts";
import { commonPrefix, complete } from "../../../src/cli/interactive/completion.ts";
import type { HistoryFile } from "../../../src/cli/interactive/history-file.ts";
import { HistorySearch } from "../../../src/cli/interactive/history-search.ts";
import type { Key } from "../../../src/cli/interactive/key-decoder.ts";
import { type PickerState, openPicker, pickerKey, pickerRows } from "../../../src/cli/interactive/list-picker.ts";
import type { PromptEditor } from "../../../src/cli/interactive/prompt-editor.ts";
import { editPrompt } from "../../../src/cli/interactive/prompt-keys.ts";
import { nextMode } from "../../../src/cli/interactive/safety-status.ts";
import { composeFrame } from "../../../src/cli/interactive/session-frame.ts";
import type { SessionView } from "../../../src/cli/interactive/session-view.ts";
import { menuRows, slashMenu } from "../../../src/cli/interactive/slash-menu.ts";
import { FRESH_QUESTION_MS, TypeAhead, routeKey } from "../../../src/cli/interactive/type-ahead.ts";

// The session's own wording (interactive-commands.ts): the / list shows every command, /theme too.
const THEME_COMMAND = { name: "theme", summary: "the session's colours: dark, light, colour-blind" };
const DOUBLE_PRESS_MS = 2000;

export interface LegacyDeps {
  config: Config;
  theme: Theme;
  view: SessionView;
  out(text: string): void;
  columns(): number;
  rows(): number;
  editor: PromptEditor;
  history: HistoryFile;
  everywhere: string[];
  executor(): Executor | undefined;
  exit(code: number): void;
  suspend(): void;
}

export function legacyKeySession(d: LegacyDeps) {
  const { config, theme, view, out, editor, history, everywhere } = d;
  const width = () => d.columns() - 1;
  const rows = d.rows;
  let themeName = config.theme;
  let search: HistorySearch | undefined;
  let picker: PickerState | undefined;
  const typeAhead = new TypeAhead();
  let pendingImages: string[] = [];
  const screen = new ScreenDiff(out, d.columns());
  const names = commandNames();
  let hint: string | undefined;
  let candidates: string[] = [];
  let armed: { key: "c" | "d"; at: number } | undefined;
  let armTimer: ReturnType<typeof setTimeout> | undefined;
  const spin = 0;
  const exiting = false;
  const leaving = false;
  let approval: { prompt: ApprovalPrompt; request: ApprovalRequest; resolve: (a: ApprovalAnswer) => void } | undefined;
  let approvals: Promise<unknown> = Promise.resolve();
  const approve = (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    const answered = approvals.then(
      () =>
        new Promise<ApprovalAnswer>((resolve) => {
          if (exiting || leaving) return resolve({ no: "the session ended" });
          const prompt = new ApprovalPrompt(request, theme);
          approval = { prompt, request, resolve };
          paint();
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
    armTimer = setTimeout(() => {
      disarm();
      paint();
    }, DOUBLE_PRESS_MS);
  };
  const armedFor = (key: "c" | "d") => armed?.key === key && Date.now() - armed.at < DOUBLE_PRESS_MS;
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
      facts: d.executor()?.facts(),
      approval: approval?.prompt,
      startMode: config.permissionMode,
    });
  };
  const paint = () => {
    if (exiting) return;
    const committed = view.takeCommitted();
    const f = frame();
    if (committed.length) screen.commit(committed, f);
    else screen.render(f);
  };
  const submit = (text: string) => {
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
    const executor = d.executor();
    if (!executor) return;
    const busy = executor.running() !== undefined || executor.pending() > 0;
    const shellMode = text.trimStart().startsWith("!");
    let images: string[] | undefined;
    if (pendingImages.length && !shellMode && !text.trimStart().startsWith("/")) {
      images = pendingImages;
      pendingImages = [];
    }
    const id = executor.submit({ text, images, shellMode, attachMentions: true });
    if (busy) view.queue(id, text);
    void executor.waitFor(id).then((outcome) => {
      if (outcome.exit) d.exit(EXIT.ok);
    });
  };
  const interruptTurn = () => {
    const executor = d.executor();
    if (!executor) return;
    const back = view.withdrawQueued();
    for (const q of back) executor.interrupt(q.id);
    executor.interrupt();
    if (!back.length) return;
    editor.text = [...back.map((q) => q.text), editor.text].filter((x) => x).join("\n");
    editor.cursor = editor.text.length;
  };
  const cycleMode = () => {
    const executor = d.executor();
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
    const prompts = d.executor()?.runtime.mcpPromptCommands() ?? [];
    const c = complete(editor.text, editor.cursor, config.cwd, prompts.length ? [...names, ...prompts] : names);
    if (!c?.candidates.length) {
      candidates = [];
      return;
    }
    const chosen = c.candidates.length === 1 ? c.candidates[0]! : commonPrefix(c.candidates);
    if (chosen.length > c.to - c.from) {
      editor.text = editor.text.slice(0, c.from) + chosen + editor.text.slice(c.to);
      editor.cursor = c.from + chosen.length;
    }
    candidates = c.candidates.length > 1 ? c.candidates.map((x) => x.trim()) : [];
  };
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
    const executor = d.executor();
    const now = Date.now();
    const stopKey = key.kind === "esc" || (key.kind === "ctrl" && key.name === "c");
    const route =
      approval &&
      routeKey({
        stopKey,
        questionTakes: approval.prompt.takes(key),
        continuesDraft: typeAhead.continues(now, editor.isEmpty()),
      });
    if (route === "draft") {
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
              d.exit(EXIT.ok);
              return;
            } else {
              arm("c");
            }
            break;
          }
          case "d":
            if (!editor.isEmpty()) editor.deleteForward();
            else if (!executor?.running() || armedFor("d")) {
              d.exit(EXIT.ok);
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
            d.suspend();
            return;
        }
        break;
    }
    paint();
  };
  return {
    onKey,
    approve,
    paint,
    openPicker: (choices: Choices) => {
      picker = openPicker(choices);
    },
  };
}
