// What the interactive session shows, built from the executor's events: lines that are finished
// (committed once to the scrollback) and the live rows under them (the answer's unfinished
// paragraph, running tools with their output tail, sub-agent rows, queued inputs, the spinner).

import type { ExecutorEvent } from "../../executor/executor.ts";
import { assertNever } from "../../protocol/assert-never.ts";
import type { RunResult } from "../../protocol/events.ts";
import { type Message, textOf } from "../../protocol/message.ts";
import { SHOWN_CALL_LINES, SHOWN_COMMAND_LINES } from "../../render/command-output.ts";
import { inert, inertLine } from "../../render/inert.ts";
import { lastLines } from "../../render/live-tail.ts";
import { MarkdownStream } from "../../render/markdown-stream.ts";
import { type TaskRow, applyTaskEvent, renderTaskRow } from "../../render/task-rows.ts";
import { fitWidth, wrapListing, wrapText } from "../../render/text-width.ts";
import type { Theme } from "../../render/theme.ts";
import { toolLabel } from "../../render/tool-label.ts";
import { compactedLine } from "../command-report.ts";
import { replayRows } from "./session-replay.ts";
import { callResultRows, echo, finishedCallRow } from "./transcript-rows.ts";
import { retryNotice } from "../output/notices.ts";
import { formatTokens, tokenChange } from "../output/token-count.ts";

/** The reasons policy/gate.ts (and hooks/hook-gate.ts) give when the user answered no, or Esc. */
const USER_REFUSALS = new Set(["the user said no", "rejected by the user"]);
const SPIN = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

interface RunningTool {
  name: string;
  label: string;
  input: unknown;
  output: string;
  /** Everything it printed, up to WHOLE_OUTPUT_CAP: what a `!command` shows and Ctrl-O expands. */
  whole: string;
  /** A `task:*` call: its sub-agent row stands for it, so no tool row of its own. */
  isTask: boolean;
}

/** How much of a running tool's output is kept whole (the model's copy is cut far shorter). */
const WHOLE_OUTPUT_CAP = 1 << 20;

/** How long a status notice (context condensed) stays on the status line. */
export const NOTICE_MS = 6000;

export class SessionView {
  private committed: string[] = [];
  /** The current answer: finished lines are committed, the unfinished one stays live. */
  private readonly md: MarkdownStream;
  private streamedThisTurn = false;
  private tools = new Map<string, RunningTool>();
  private tasks = new Map<string, TaskRow>();
  /** Tool calls whose sub-agent row was shown (task events carry the calling tool call's id). */
  private taskRowShown = new Set<string>();
  /** A finished sub-agent's result rows, held until the rows of those called before it are out. */
  private taskResults = new Map<string, string[]>();
  private queued: { id: string; text: string }[] = [];
  /** Queued inputs taken back into the prompt: their skipped submissions show nothing. */
  private withdrawn = new Set<string>();
  /** Submissions the user did not type (a picker's choice, "/rewind 2 ?"): not echoed as prompts. */
  private unechoedIds = new Set<string>();
  private busySince: number | undefined;
  private noticeText: string | undefined;
  /** When the notice goes (ms since the epoch); the session repaints then. */
  noticeUntil = 0;
  /** The last finished tool call's whole result as the model got it, for Ctrl-O. */
  private lastResult: { label: string; text: string } | undefined;
  private labels = new Map<string, string>();
  /** A condense was reported in this submission: a /compact's own summary line would repeat it. */
  private condenseShown = false;
  /** Calls the user refused at the approval prompt: the answer line said so, the row adds nothing. */
  private refusedByUser = new Set<string>();
  /** The running submission is a `!command`: its output is shown, not summed up in a line. */
  private shellSubmission = false;
  /**
   * A bare `/name`'s echo, held until its submission says more: when it opens a picker instead,
   * the echo goes with the picker (shown if a choice is made), so a cancelled one leaves nothing.
   */
  private heldEcho: string[] | undefined;

  constructor(
    private readonly theme: Theme,
    private readonly width: () => number,
    private readonly labelLimit: number,
  ) {
    this.md = new MarkdownStream(theme, width);
  }

  get notice(): string | undefined {
    return this.noticeText !== undefined && Date.now() < this.noticeUntil ? this.noticeText : undefined;
  }

  private setNotice(text: string | undefined): void {
    this.noticeText = text;
    this.noticeUntil = text === undefined ? 0 : Date.now() + NOTICE_MS;
  }

  /** Ctrl-O: the last tool call's whole output, every line, into the scrollback. */
  expandLast(): void {
    const t = this.theme;
    const w = this.width();
    if (!this.lastResult) {
      this.say(t.dim("  no tool output yet"));
      return;
    }
    const lines = this.lastResult.text.replace(/\n+$/, "").split("\n");
    this.say(t.dim(fitWidth(`  ⎿ ${this.lastResult.label}: ${lines.length} line${lines.length === 1 ? "" : "s"}`, w)));
    for (const line of lines) this.say(...wrapText(`    ${inert(line)}`, w));
  }

  get busy(): boolean {
    return this.busySince !== undefined;
  }

  queue(id: string, text: string): void {
    this.queued.push({ id, text });
  }

  unechoed(id: string): void {
    this.unechoedIds.add(id);
  }

  unqueue(id: string): void {
    this.queued = this.queued.filter((q) => q.id !== id);
  }

  /** Takes every queued input back (an interrupt returns them to the prompt), oldest first. */
  withdrawQueued(): { id: string; text: string }[] {
    const taken = this.queued;
    this.queued = [];
    for (const q of taken) this.withdrawn.add(q.id);
    return taken;
  }

  /** Lines to write to the scrollback since the last call. */
  takeCommitted(): string[] {
    const out = this.committed;
    this.committed = [];
    return out;
  }

  say(...lines: string[]): void {
    this.committed.push(...lines);
  }

  /** Where a resumed session left off (session-replay.ts); `earlier`: messages in memory before these. */
  replay(messages: readonly Message[], earlier = 0): void {
    this.say(...replayRows(messages, earlier, { theme: this.theme, width: this.width(), labelLimit: this.labelLimit }));
  }

  /** A run's end: what is left of the stream and the task rows, and why it failed, if it did. */
  private runEnded(r: RunResult, w: number): void {
    const t = this.theme;
    this.flushStream();
    this.flushTasks(true);
    if (r.error) this.say(t.red(`error: ${inertLine(r.error)}`));
    else if (r.subtype === "error_during_execution")
      this.say(...wrapText(`error: ${inert(r.result)}`, w).map((l) => t.red(l)));
    else if (r.subtype === "error_max_turns")
      this.say(t.red(`error: reached the maximum number of turns (${r.num_turns})`));
    else if (r.subtype === "error_max_tokens") this.say(t.red("error: the answer was cut at the output limit"));
    else if (r.subtype === "error_max_budget_usd")
      this.say(...wrapText(`error: ${inert(r.result)}`, w).map((l) => t.red(l)));
  }

  /** The held echo of the `/name` whose list a picker now shows (none for an unechoed one). */
  takeHeldEcho(): string[] {
    const rows = this.heldEcho ?? [];
    this.heldEcho = undefined;
    return rows;
  }

  handle(event: ExecutorEvent): void {
    const t = this.theme;
    const w = this.width();
    if (this.heldEcho) this.say(...this.takeHeldEcho());
    switch (event.type) {
      case "submission_start":
        this.submissionStarted(event.id, event.text);
        break;
      case "submission_end":
        if (this.withdrawn.delete(event.outcome.id)) break;
        this.flushStream();
        this.busySince = undefined;
        if (event.outcome.status === "interrupted") this.say(t.yellow("  ⎿ interrupted"));
        break;
      case "command_output":
        for (const line of event.lines)
          for (const row of inert(line).split("\n"))
            this.say(...wrapListing(row, w).map((l) => (event.is_error ? t.red(l) : l)));
        break;
      case "text_delta":
        this.say(...this.md.push(event.text));
        this.streamedThisTurn = true;
        break;
      case "turn_retry":
        this.md.discard();
        this.say(t.yellow(`⟳ ${inertLine(retryNotice(event))}`));
        break;
      case "assistant": {
        if (event.parent_tool_use_id) break;
        if (!this.streamedThisTurn) this.say(...this.md.push(textOf(event.message)));
        this.flushStream();
        this.streamedThisTurn = false;
        break;
      }
      case "tool_start":
        this.flushStream();
        this.tools.set(event.id, {
          name: event.name,
          label: toolLabel(event.name, event.input, this.labelLimit),
          input: event.input,
          output: "",
          whole: "",
          isTask:
            event.name === "Bash" && /^\s*task:/.test(String((event.input as { command?: unknown })?.command ?? "")),
        });
        break;
      case "tool_progress": {
        const tool = this.tools.get(event.id);
        if (!tool) break;
        tool.output = (tool.output + event.text).slice(-4096);
        if (tool.whole.length < WHOLE_OUTPUT_CAP) tool.whole += event.text;
        break;
      }
      case "tool_end":
        this.toolEnded(event, w);
        break;
      case "user":
        if (!event.parent_tool_use_id) this.resultsArrived(event.message);
        break;
      case "task_start":
        this.taskRowShown.add(event.id);
        applyTaskEvent(this.tasks, event);
        break;
      case "task_progress":
        applyTaskEvent(this.tasks, event);
        break;
      case "task_end":
        applyTaskEvent(this.tasks, event);
        this.flushTasks(false);
        break;
      case "warning":
        this.say(...wrapText(`warning: ${inert(event.message)}`, w).map((l) => t.yellow(l)));
        break;
      case "permission_denied":
        // The user's own "no" (or Esc) was already shown under the approval prompt, with their
        // reason: the call's row says no more than that it failed (its result is the model's note).
        if (USER_REFUSALS.has(event.reason)) {
          this.refusedByUser.add(event.id);
          break;
        }
        this.say(t.red(fitWidth(`  ⎿ not allowed: ${inertLine(event.reason)}`, w)));
        break;
      case "compact_boundary":
        this.condenseShown = true;
        this.setNotice(`condensed ${tokenChange(event.tokens_before, event.tokens_after)}`);
        this.say(t.dim(`  context condensed (${event.method}): ${condensedCounts(event)} tokens`));
        break;
      case "compacted":
        if (this.condenseShown) break;
        this.say(
          event.tokens_before === event.tokens_after
            ? `nothing to compact: ${formatTokens(event.tokens_before)} tokens`
            : compactedLine(event.tokens_before, event.tokens_after),
        );
        break;
      case "model_changed":
        // No notice: /model says the switch in the transcript, and the status line shows the model.
        break;
      case "session_changed":
        this.setNotice(undefined);
        this.say(t.dim(`  switched to session ${event.session_id} (the previous one, ${event.previous}, is saved)`));
        break;
      case "result":
        this.runEnded(event.result, w);
        break;
      case "init":
      case "compact_start":
        // The status line shows the session; a condense is shown when it is done (compact_boundary).
        break;
      default:
        assertNever(event, "event");
    }
  }

  private submissionStarted(id: string, text: string): void {
    if (this.withdrawn.has(id)) return;
    this.condenseShown = false;
    this.shellSubmission = text.trimStart().startsWith("!");
    this.queued = this.queued.filter((q) => q.id !== id);
    this.busySince = Date.now();
    if (this.unechoedIds.delete(id)) return;
    const rows = ["", ...echo(text, this.width(), this.theme)];
    if (/^\/\S+\s*$/.test(text.trim())) this.heldEcho = rows;
    else this.say(...rows);
  }

  private toolEnded(event: Extract<ExecutorEvent, { type: "tool_end" }>, w: number): void {
    const t = this.theme;
    const tool = this.tools.get(event.id);
    this.tools.delete(event.id);
    const label = tool?.label ?? event.name;
    const shownAsTask = this.taskRowShown.delete(event.id);
    this.labels.set(event.id, label);
    if (!shownAsTask) this.say(finishedCallRow(label, event.is_error, event.display, w, t));
    // What it printed is Ctrl-O's until the result the model got arrives (a `!command`'s never does).
    const userCommand = this.shellSubmission && event.name === "Bash";
    if (tool && (tool.whole || userCommand)) this.lastResult = { label, text: tool.whole };
    // A command's row shows what it printed (its first lines); other tools say what they did in one line.
    const isCommand = event.display?.kind === "command" && !tool?.isTask;
    const printed = isCommand && tool?.whole.trim() ? tool.whole : undefined;
    const call = { summary: event.summary, isError: event.is_error, display: event.display, printed };
    const shownLines = userCommand ? SHOWN_COMMAND_LINES : SHOWN_CALL_LINES;
    const result = this.refusedByUser.delete(event.id) ? [] : callResultRows(call, shownLines, w, t);
    if (!shownAsTask || !this.tasks.has(event.id)) this.say(...result);
    else {
      this.taskResults.set(event.id, result);
      this.flushTasks(false);
    }
  }

  /** The results of the main agent's calls: the newest is what Ctrl-O shows whole. */
  private resultsArrived(message: Message): void {
    for (const b of message.content) {
      if (b.type !== "tool_result") continue;
      const text =
        typeof b.content === "string"
          ? b.content
          : b.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
      this.lastResult = { label: this.labels.get(b.tool_use_id) ?? "tool", text };
    }
    this.labels.clear();
  }

  /** The live rows, newest state, at most `maxRows` of them; `waiting`: on the user's answer to a question. */
  liveRows(frame: number, maxRows: number, waiting = false): string[] {
    const t = this.theme;
    const w = this.width();
    const rows: string[] = [];
    rows.push(...this.md.live());
    for (const tool of this.tools.values()) {
      if (tool.isTask) continue;
      rows.push(`${t.cyan(spinner(frame))} ${t.bold(fitWidth(tool.label, w - 2))}`);
      for (const line of lastLines(tool.output, 3)) rows.push(t.dim(fitWidth(`  ${inertLine(line)}`, w)));
    }
    const taskRow = (row: TaskRow) =>
      renderTaskRow(row, { colors: t, labelLimit: this.labelLimit, columns: w, frame }).text;
    const tasks = [...this.tasks.values()];
    const queued = tasks.filter((r) => r.state === "queued");
    // Rows that do not fit are cut from the top; queued tasks give way first (one count line), so
    // every running task keeps its row.
    const others = rows.length + (this.busySince !== undefined ? 1 : 0) + this.queued.length;
    const fitsAll = others + tasks.length <= maxRows;
    for (const row of tasks) if (fitsAll || row.state !== "queued") rows.push(taskRow(row));
    if (!fitsAll && queued.length) rows.push(t.dim(fitWidth(`○ … ${queued.length} more queued`, w)));
    // While a question waits, the row says so and stands still (no seconds ticking, no repaints).
    if (this.busySince !== undefined && waiting)
      rows.push(t.yellow("?") + t.dim(fitWidth(" waiting for your answer", w - 2)));
    else if (this.busySince !== undefined) {
      const secs = Math.floor((Date.now() - this.busySince) / 1000);
      rows.push(t.cyan(spinner(frame)) + t.dim(fitWidth(` working… ${secs}s · esc to interrupt`, w - 2)));
    }
    for (const q of this.queued) rows.push(t.dim(fitWidth(`  queued: ${inertLine(q.text)}`, w)));
    return rows.length > maxRows ? rows.slice(rows.length - maxRows) : rows;
  }

  /**
   * Finished sub-agents go to the scrollback in the order they were called, each row with its
   * result under it: one that finished early waits (its row drawn done, live) for those before it.
   * `all`: the turn is over, whatever is left goes as it is.
   */
  private flushTasks(all: boolean): void {
    const style = { colors: this.theme, labelLimit: this.labelLimit, columns: this.width(), frame: 0 };
    for (const [id, row] of this.tasks) {
      const result = this.taskResults.get(id);
      const finished = row.state === "done" || row.state === "failed";
      if (!all && (!finished || !result)) break;
      this.say(renderTaskRow(row, style).text, ...(result ?? []));
      this.tasks.delete(id);
      this.taskResults.delete(id);
    }
  }

  private flushStream(): void {
    this.say(...this.md.end());
  }
}

/** "120,000 → 30,000": a condense's token counts before and after. */
function condensedCounts(e: { tokens_before: number; tokens_after: number }): string {
  return `${e.tokens_before.toLocaleString("en-US")} → ${e.tokens_after.toLocaleString("en-US")}`;
}

/** The spinner's glyph at a frame. */
function spinner(frame: number): string {
  return SPIN[frame % SPIN.length] ?? "";
}
