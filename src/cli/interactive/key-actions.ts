// Carries out what key-dispatch.ts decides a key does: answers a waiting question, edits the draft,
// moves a picker or the command list, sends the prompt, interrupts, completes, arms or exits.

import type { Config } from "../../config/config.ts";
import type { Executor } from "../../executor/executor.ts";
import { assertNever } from "../../protocol/assert-never.ts";
import { EXIT } from "../../protocol/errors.ts";
import { fitWidth } from "../../render/text-width.ts";
import type { Theme } from "../../render/theme.ts";
import { type ApprovalQueue, answerLine, stopsTurn } from "./approval-queue.ts";
import { commonPrefix, complete } from "./completion.ts";
import type { DoublePress } from "./double-press.ts";
import type { HistoryFile } from "./history-file.ts";
import { HistorySearch } from "./history-search.ts";
import { INTERACTIVE_COMMAND_NAMES } from "./interactive-commands.ts";
import type { Key } from "./key-decoder.ts";
import { type SessionAction, keyTarget, sessionKey } from "./key-dispatch.ts";
import { pickerKey } from "./list-picker.ts";
import type { PromptArea } from "./prompt-area.ts";
import { editPrompt } from "./prompt-keys.ts";
import type { PromptSubmitter } from "./prompt-submit.ts";
import { nextMode } from "./safety-status.ts";
import type { ScreenPainter } from "./screen-painter.ts";
import { searchKey } from "./search-keys.ts";
import type { SessionView } from "./session-view.ts";
import { type TypeAhead, routeKey } from "./type-ahead.ts";

export interface KeyHost {
  config: Config;
  theme: Theme;
  width(): number;
  view: SessionView;
  area: PromptArea;
  press: DoublePress;
  painter: ScreenPainter;
  approvals: ApprovalQueue;
  submitter: PromptSubmitter;
  typeAhead: TypeAhead;
  history: HistoryFile;
  /** Ctrl-R's list: the prompts sent in every directory, this session's added as they go. */
  everywhere: string[];
  executor(): Executor | undefined;
  exit(code: number): void;
  suspend(): void;
}

export class KeyHandler {
  private readonly names = INTERACTIVE_COMMAND_NAMES;

  constructor(private readonly s: KeyHost) {}

  onKey = (key: Key): void => {
    const { approvals, area, typeAhead } = this.s;
    const now = Date.now();
    const question = approvals.current;
    // Esc and Ctrl-C always reach the question (they answer no); other keys of a draft still being
    // typed when it appeared go on into the draft until the user pauses.
    const route =
      question &&
      routeKey({
        stopKey: key.kind === "esc" || (key.kind === "ctrl" && key.name === "c"),
        questionTakes: question.prompt.takes(key),
        continuesDraft: typeAhead.continues(now, area.editor.isEmpty()),
      });
    const target = keyTarget({ question: route, picker: area.picker !== undefined, search: area.search !== undefined });
    switch (target) {
      case "draft":
        // Only draft edits: Tab, Ctrl-D and the session's other keys wait for the answer.
        typeAhead.typed(now);
        if (editPrompt(area.editor, key)) this.s.painter.paint();
        break;
      case "question":
        this.answerQuestion(key);
        this.s.painter.paint();
        break;
      case "picker":
        this.pickerKey(key);
        this.s.painter.paint();
        break;
      case "search":
        if (this.searchKey(key)) this.s.painter.paint();
        else this.sessionKey(key, now);
        break;
      case "session":
        this.sessionKey(key, now);
        break;
      default:
        assertNever(target, "key target");
    }
  };

  private answerQuestion(key: Key): void {
    const { approvals, view, theme } = this.s;
    const question = approvals.current;
    const answer = question?.prompt.handle(key);
    if (!question || answer === undefined) return;
    const resolve = approvals.take();
    view.say(theme.dim(fitWidth(answerLine(question.request, answer), this.s.width())));
    // Esc / Ctrl-C: the turn ends here (the model gets the rejection, not another go), as in
    // Claude Code. Interrupted first, so the answer finds the turn's signal already aborted.
    if (stopsTurn(answer)) this.interruptTurn();
    resolve?.(answer);
  }

  private pickerKey(key: Key): void {
    const { area } = this.s;
    if (!area.picker) return;
    const { command } = area.picker.choices;
    const outcome = pickerKey(area.picker, key);
    area.picker = outcome.kind === "open" ? outcome.state : undefined;
    if (outcome.kind === "open") return;
    // A cancelled picker leaves nothing in the transcript; a choice shows the `/name` that offered it.
    if (outcome.kind === "chosen") {
      this.s.view.say(...area.pickerEcho);
      this.s.submitter.submit(`/${command} ${outcome.value}`, { echo: false });
    }
    area.pickerEcho = [];
  }

  /** True when the search took the key; false when it ended and the key goes on to the session. */
  private searchKey(key: Key): boolean {
    const { area } = this.s;
    if (!area.search) return false;
    const outcome = searchKey(area.search, key, area.editor);
    if (outcome !== "searching") area.search = undefined;
    return outcome !== "passed";
  }

  private sessionKey(key: Key, now: number): void {
    const { area, press, typeAhead } = this.s;
    typeAhead.typed(now);
    const editor = area.editor;
    const items = area.menu(this.s.approvals.current !== undefined);
    const plan = sessionKey(key, {
      menuOpen: items.length > 0,
      editorEmpty: editor.isEmpty(),
      running: Boolean(this.s.executor()?.running()),
      armed: press.armedKey(),
      lineContinues: editor.text.slice(0, editor.cursor).endsWith("\\"),
    });
    if (plan.disarm) press.disarm();
    if (!plan.keepCandidates) area.candidates = [];
    if (plan.action.kind === "menu-move") area.movePick(items, plan.action.by);
    if (plan.action.kind === "menu-take" || plan.action.kind === "menu-run") {
      const name = area.picked(items)?.name ?? "";
      area.menuPick = 0;
      area.setDraft(plan.action.kind === "menu-take" ? `/${name} ` : `/${name}`);
    }
    if (plan.action.kind === "edit") {
      editPrompt(editor, key);
      area.menuPick = 0;
    }
    // Exit and suspend leave the screen to their own sequence; every other key is drawn.
    if (this.perform(plan.action)) this.s.painter.paint();
  }

  /** Carries out a session key's action; false when nothing is to be drawn after it. */
  private perform(action: SessionAction): boolean {
    const { area, press, view, painter } = this.s;
    switch (action.kind) {
      case "menu-move":
      case "menu-take":
      case "edit":
      case "none":
        return true;
      case "menu-run":
      case "send":
        this.send();
        return true;
      case "new-line":
        // `\` then Enter continues the prompt on a new line.
        area.editor.backspace();
        area.editor.insert("\n");
        return true;
      case "interrupt":
        this.interruptTurn();
        return true;
      case "complete":
        this.tabComplete();
        return true;
      case "cycle-mode":
        this.cycleMode();
        return true;
      case "clear-draft":
        area.editor.clear();
        press.disarm();
        return true;
      case "delete-forward":
        area.editor.deleteForward();
        return true;
      case "arm":
        press.arm(action.key);
        return true;
      case "exit":
        this.s.exit(EXIT.ok);
        return false;
      case "expand":
        view.expandLast();
        return true;
      case "search":
        area.search = new HistorySearch(this.s.everywhere, area.editor.text);
        return true;
      case "redraw":
        painter.clearScreen();
        return true;
      case "suspend":
        this.s.suspend();
        return false;
      case "rewind":
        press.disarm();
        this.s.submitter.submit("/rewind");
        return true;
      default:
        return assertNever(action, "key action");
    }
  }

  private send(): void {
    const { area, history, everywhere, config } = this.s;
    const text = area.editor.take();
    if (!text.trim()) return;
    area.editor.remember(text);
    history.append(text, config.cwd);
    if (everywhere.at(-1) !== text) everywhere.push(text);
    this.s.submitter.submit(text);
  }

  /**
   * An interrupt means the work went the wrong way: inputs queued behind it come back into the
   * prompt (before the draft) to be edited or sent again, rather than starting on their own.
   */
  interruptTurn(): void {
    const executor = this.s.executor();
    if (!executor) return;
    const { view, area } = this.s;
    const back = view.withdrawQueued();
    for (const q of back) executor.interrupt(q.id);
    executor.interrupt();
    if (!back.length) return;
    area.setDraft([...back.map((q) => area.editor.asShown(q.text)), area.editor.text].filter((x) => x).join("\n"));
  }

  /** Shift+Tab: the next permission mode, from the next tool call on (bypass only if the session began in it). */
  private cycleMode(): void {
    const executor = this.s.executor();
    if (!executor) return;
    const { config, view, theme } = this.s;
    const mode = nextMode(executor.runtime.permissionMode, config.permissionMode === "bypass");
    executor.runtime.setPermissionMode(mode);
    const note = mode === "bypass" ? " (every tool call runs without asking)" : "";
    view.say(theme.dim(fitWidth(`  permission mode: ${mode}${note}`, this.s.width())));
  }

  private tabComplete(): void {
    const { area, config } = this.s;
    const editor = area.editor;
    const prompts = this.s.executor()?.runtime.mcpPromptCommands() ?? [];
    const c = complete(
      editor.text,
      editor.cursor,
      config.cwd,
      prompts.length ? [...this.names, ...prompts] : this.names,
    );
    if (!c?.candidates.length) {
      area.candidates = [];
      return;
    }
    const chosen = c.candidates.length === 1 ? (c.candidates[0] ?? "") : commonPrefix(c.candidates);
    if (chosen.length > c.to - c.from) {
      editor.text = editor.text.slice(0, c.from) + chosen + editor.text.slice(c.to);
      editor.cursor = c.from + chosen.length;
    }
    area.candidates = c.candidates.length > 1 ? c.candidates.map((x) => x.trim()) : [];
  }
}
