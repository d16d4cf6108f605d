// Status rows for sub-agents: one fixed row per task, redrawn in place on a terminal while the
// others run (spinner, then ✓/✗ with duration and tool calls). The row model and its rendering are
// pure; TaskRowsDisplay draws them on any write function, so a text writer or an interactive UI
// can use it alike.

import type { AgentEvent } from "../protocol/events.ts";
import { codePointCount } from "../text/code-point.ts";
import type { Colors } from "./colors.ts";
import { inertLine } from "./inert.ts";
import { toolLabel } from "./tool-label.ts";
import { itemAt } from "../text/checked-index.ts";
import { type BlockLine, blockFrame } from "./row-block.ts";

/** Most characters of a running task's current call (`Read(src/x.ts)`): the description keeps the rest. */
const CURRENT_TOOL_LIMIT = 40;

export type TaskRowState = "queued" | "running" | "done" | "failed";

export interface TaskRow {
  id: string;
  /** `task:explore` or `task:general`. */
  kind: string;
  /** The description the model gave, else its prompt (untrusted text). */
  label: string;
  state: TaskRowState;
  toolCalls: number;
  /** The call a running task is making (input already redacted; rendered inert by toolLabel). */
  tool?: { name: string; input: unknown };
  durationMs?: number;
}

export type TaskEvent = Extract<AgentEvent, { type: "task_start" | "task_progress" | "task_end" }>;

export const SPINNER = ["◐", "◓", "◑", "◒"];

export interface RowStyle {
  colors: Pick<Colors, "green" | "red" | "dim">;
  /** TOOL_RESULT_SUMMARY_LIMIT: the most characters of a label shown. */
  labelLimit: number;
  /** Terminal width; a row never reaches the last column (it would wrap on some terminals). */
  columns: number;
  frame: number;
}

/** Applies one task event to the rows (in start order): pure apart from the map it updates. */
export function applyTaskEvent(rows: Map<string, TaskRow>, event: TaskEvent): void {
  if (event.type === "task_start") {
    rows.set(event.id, { id: event.id, kind: event.kind, label: event.description, state: "queued", toolCalls: 0 });
    return;
  }
  const row = rows.get(event.id);
  if (!row) return;
  if (event.type === "task_progress") {
    if (row.state === "queued") row.state = "running";
    row.toolCalls = Math.max(row.toolCalls, event.tool_calls);
    if (event.tool) row.tool = event.tool;
  } else {
    row.state = event.is_error ? "failed" : "done";
    row.toolCalls = event.tool_calls;
    row.durationMs = event.duration_ms;
  }
}

export function formatDuration(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

function cut(text: string, max: number): string {
  if (max <= 0) return "";
  // By code points, so no cut splits an emoji.
  return codePointCount(text) > max
    ? `${Array.from(text)
        .slice(0, max - 1)
        .join("")}…`
    : text;
}

function suffix(row: TaskRow): string {
  const calls = `${row.toolCalls} tool call${row.toolCalls === 1 ? "" : "s"}`;
  if (row.state === "queued") return " (queued)";
  if (row.state === "running") {
    if (!row.tool) return row.toolCalls ? ` · ${calls}` : "";
    return ` · ${toolLabel(row.tool.name, row.tool.input, CURRENT_TOOL_LIMIT)} · ${calls}`;
  }
  return ` · ${formatDuration(row.durationMs ?? 0)} · ${calls}`;
}

/** One row, cut to the label limit and the terminal width: pure. */
export function renderTaskRow(row: TaskRow, style: RowStyle): { text: string; width: number } {
  const c = style.colors;
  const icon =
    row.state === "done"
      ? "✓"
      : row.state === "failed"
        ? "✗"
        : row.state === "queued"
          ? "○"
          : itemAt(SPINNER, style.frame % SPINNER.length);
  const tail = suffix(row);
  const head = `${icon} ${row.kind} `;
  const room = Math.min(style.labelLimit, style.columns - 1 - codePointCount(head) - codePointCount(tail));
  const label = cut(inertLine(row.label).trim(), room);
  const width = codePointCount(head) + codePointCount(label) + codePointCount(tail);
  // Even the fixed parts may not fit a very narrow terminal: then the row is cut as a whole.
  const plainText = head + label + tail;
  if (width > style.columns - 1)
    return { text: cut(plainText, style.columns - 1), width: Math.max(0, style.columns - 1) };
  const coloured = row.state === "done" ? c.green(icon) : row.state === "failed" ? c.red(icon) : icon;
  return { text: `${coloured}${head.slice(icon.length)}${label}${c.dim(tail)}`, width };
}

/**
 * The one line printed off a terminal when a task really starts (leaves the queue) or ends (no
 * colours, no cursor moves): a queued task is not "started", and one that ends without ever
 * leaving the queue says so.
 */
export function plainTaskLine(row: TaskRow, labelLimit: number, neverStarted = false): string | undefined {
  const label = cut(inertLine(row.label).trim(), labelLimit);
  if (row.state === "queued") return undefined;
  if (row.state === "running") return `${row.kind} ${label}: started`;
  const mark = row.state === "done" ? "✓" : "✗";
  if (neverStarted) return `${mark} ${row.kind} ${label} (ended while queued, never started)`;
  const calls = `${row.toolCalls} tool call${row.toolCalls === 1 ? "" : "s"}`;
  return `${mark} ${row.kind} ${label} (${formatDuration(row.durationMs ?? 0)}, ${calls})`;
}

/**
 * Which rows fit in `max` lines while a batch runs: what moves first (running, then queued, then the
 * latest to finish), shown in their start order, and one line counting the rest. Pure.
 */
export function fitRows(
  rows: readonly TaskRow[],
  finishOrder: ReadonlyMap<string, number>,
  max: number,
): { shown: TaskRow[]; hidden: number; summary?: string } {
  if (rows.length <= max) return { shown: [...rows], hidden: 0 };
  const rank = (r: TaskRow) => (r.state === "running" ? 0 : r.state === "queued" ? 1 : 2);
  const keep = new Set(
    [...rows]
      .sort((a, b) => rank(a) - rank(b) || (finishOrder.get(b.id) ?? 0) - (finishOrder.get(a.id) ?? 0))
      .slice(0, Math.max(0, max - 1)),
  );
  const hidden = rows.filter((r) => !keep.has(r));
  const count = (state: TaskRowState) => hidden.filter((r) => r.state === state).length;
  const parts = [
    `${count("done")} done`,
    `${count("failed")} failed`,
    `${count("running")} running`,
    `${count("queued")} queued`,
  ].filter((p) => !p.startsWith("0 "));
  return {
    shown: rows.filter((r) => keep.has(r)),
    hidden: hidden.length,
    summary: `… ${hidden.length} more tasks: ${parts.join(", ")}`,
  };
}

/**
 * Draws the rows of the running batch as a block at the bottom of the terminal. Other output goes
 * through `above()`, which writes over the block and draws it again below, so rows never
 * interleave with it. When every task of the batch has ended the block is drawn one last time and
 * left on screen; ordinary output resumes under it.
 */
export class TaskRowsDisplay {
  private readonly rows = new Map<string, TaskRow>();
  private readonly finishOrder = new Map<string, number>();
  /** Visible widths of the lines on screen, to know how many lines they take at today's width. */
  private drawn: number[] = [];
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly write: (text: string) => void,
    private readonly columns: () => number,
    private readonly colors: RowStyle["colors"],
    private readonly labelLimit: number,
    private readonly spinMs = 100,
    /** Terminal height: a block taller than the screen could not be redrawn in place. */
    private readonly height: () => number = () => Number.POSITIVE_INFINITY,
  ) {}

  /** True while a batch is on screen (output must then go through `above`). */
  get active(): boolean {
    return this.rows.size > 0;
  }

  handle(event: TaskEvent): void {
    applyTaskEvent(this.rows, event);
    if (event.type === "task_end") this.finishOrder.set(event.id, this.finishOrder.size + 1);
    if (!this.rows.size) return;
    const finished = [...this.rows.values()].every((r) => r.state === "done" || r.state === "failed");
    // The last drawing shows every row: it is never redrawn, so it may scroll.
    this.paint("", finished);
    if (finished) {
      // Left on screen as history; the next batch gets a block of its own.
      this.rows.clear();
      this.finishOrder.clear();
      this.drawn = [];
      this.stopTimer();
    } else if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.spinMs);
      this.timer.unref?.();
    }
  }

  /** Writes `text` (whole lines) above the rows. */
  above(text: string): void {
    if (!this.rows.size) {
      this.write(text);
      return;
    }
    this.paint(text);
  }

  /** Stops the spinner; the rows stay as drawn. */
  stop(): void {
    this.stopTimer();
    this.rows.clear();
    this.finishOrder.clear();
    this.drawn = [];
  }

  private tick(): void {
    this.frame++;
    if (this.rows.size) this.paint();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Writes one frame: `above` (whole lines), then the rows, over the rows drawn before. */
  private paint(above = "", all = false): void {
    // One width for the whole frame, read again just before the write: a resize while the frame is
    // being built (the process preempted or stopped in between) would otherwise send a frame that goes
    // up by the old width's count over rows the terminal has already re-wrapped, leaving some above it.
    const layout = (columns: number) => {
      const lines = this.render(columns, all);
      return { columns, lines, text: blockFrame(this.drawn, columns, lines, above) };
    };
    let frame = layout(this.columns());
    // Bounded: a terminal being dragged wider and narrower gets the latest width of a few reads.
    for (let tries = 0; tries < 3; tries++) {
      const now = this.columns();
      if (now === frame.columns) break;
      frame = layout(now);
    }
    this.write(frame.text);
    this.drawn = frame.lines.map((r) => r.width);
  }

  /** The rows as laid out for a terminal `terminalColumns` wide. */
  private render(terminalColumns: number, all: boolean): BlockLine[] {
    const columns = Math.max(10, terminalColumns);
    const style: RowStyle = { colors: this.colors, labelLimit: this.labelLimit, columns, frame: this.frame };
    const rows = [...this.rows.values()];
    // One line is left for the cursor: a block as tall as the screen would scroll its first row away.
    const fit = all
      ? { shown: rows, hidden: 0, summary: undefined }
      : fitRows(rows, this.finishOrder, Math.max(2, this.height() - 1));
    const out = fit.shown.map((row) => renderTaskRow(row, style));
    if (fit.summary) {
      const text = cut(fit.summary, columns - 1);
      out.unshift({ text: this.colors.dim(text), width: codePointCount(text) });
    }
    return out;
  }
}

/**
 * Off a terminal: the plain line (if any) for each task event: one when the task leaves the queue
 * (its first progress), none while queued or running, one at the end.
 */
export class TaskRowsLog {
  private readonly rows = new Map<string, TaskRow>();

  constructor(private readonly labelLimit: number) {}

  line(event: TaskEvent): string | undefined {
    const before = this.rows.get(event.id)?.state;
    applyTaskEvent(this.rows, event);
    const row = this.rows.get(event.id);
    if (!row || event.type === "task_start") return undefined;
    if (event.type === "task_progress") return before === "queued" ? plainTaskLine(row, this.labelLimit) : undefined;
    this.rows.delete(event.id);
    return plainTaskLine(row, this.labelLimit, before === "queued");
  }
}
