// A resumed session's replay: the rows that show where it left off (its newest prompts, answers
// and tool calls, each call with how it ended), built from the stored messages. Apart from
// session-view.ts, which draws the executor's live events: a replay reads the store, and is pure.

import { type CompactionInfo, FAILED_PROMPT, INTERRUPTED_PROMPT, type Message } from "../../protocol/message.ts";
import { SHOWN_CALL_LINES, commandOutputRows } from "../../render/command-output.ts";
import { inertLine } from "../../render/inert.ts";
import { renderMarkdown } from "../../render/markdown.ts";
import { fitWidth } from "../../render/text-width.ts";
import type { Theme } from "../../render/theme.ts";
import { toolLabel } from "../../render/tool-label.ts";
import { replayedInput } from "./replayed-input.ts";
import { echo, FAILED_GLYPH, OK_GLYPH } from "./transcript-rows.ts";

export interface ReplayStyle {
  theme: Theme;
  width: number;
  labelLimit: number;
}

/**
 * Shows where a resumed session left off: its newest messages, from the last compaction record
 * on when that is among them (the turns a record keeps are copied after it: shown once), with a
 * note when older ones exist, and each tool call with how it ended and its result's first line.
 * `earlier`: how many messages in memory come before `messages`.
 */
export function replayRows(messages: readonly Message[], earlier: number, style: ReplayStyle): string[] {
  const { theme: t, width: w, labelLimit } = style;
  const rows: string[] = [];
  const record = messages.findLastIndex((m) => m.compaction !== undefined);
  if (record > 0) messages = messages.slice(record);
  else if (earlier > 0) rows.push(t.dim(`  … ${earlier} earlier message${earlier === 1 ? "" : "s"} not shown`));
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type !== "tool_result") continue;
      const parts =
        typeof b.content === "string" ? [b.content] : b.content.map((c) => (c.type === "text" ? c.text : "[image]"));
      const text = parts.join("\n");
      results.set(b.tool_use_id, { text, isError: b.is_error === true });
    }
  }
  for (const [i, m] of messages.entries()) {
    if (m.compaction) {
      rows.push(t.dim("  (earlier messages condensed into a summary)"));
      const prompt = keptTurnPrompt(m.compaction, messages[i + 1]);
      if (prompt) rows.push("", ...echo(prompt, w, t));
      continue;
    }
    for (const block of m.content) {
      if (block.type === "text" && block.text.trim()) {
        if (m.role === "user" && block.text === INTERRUPTED_PROMPT) rows.push(t.yellow("  ⎿ interrupted"));
        else if (m.role === "user" && block.text === FAILED_PROMPT) rows.push(t.yellow("  ⎿ the request failed"));
        else if (m.role === "user") rows.push(...userTextRows(block.text, style));
        else rows.push(...renderMarkdown(block.text, w, t));
      } else if (block.type === "tool_use") {
        const result = results.get(block.id);
        const glyph = result?.isError ? t.red(FAILED_GLYPH) : OK_GLYPH;
        const shown = result && block.name === "Bash" ? replayedCommand(result.text) : { text: result?.text, note: "" };
        const label = fitWidth(toolLabel(block.name, block.input, labelLimit), w - 2 - shown.note.length);
        rows.push(`${glyph} ${t.dim(label)}${shown.note}`);
        // A command's first lines, as its row showed them live (session-view.ts).
        const printed = block.name === "Bash" && shown.text?.trim() ? shown.text : undefined;
        if (printed) rows.push(...commandOutputRows(printed, lineCount(printed), w, t, SHOWN_CALL_LINES));
        else if (result) rows.push(replayedResult(shown.text ?? "", result.isError, w, t));
      }
    }
  }
  return rows;
}

/** A stored prompt as it was typed: a `!command` with its row and output, an `@file` as its Read row. */
function userTextRows(text: string, style: ReplayStyle): string[] {
  const { theme: t, width: w, labelLimit } = style;
  const input = replayedInput(text);
  if (input.kind === "prompt") return ["", ...echo(text, w, t)];
  if (input.kind === "mention")
    return [`${OK_GLYPH} ${t.dim(fitWidth(toolLabel("Read", { path: input.path }, labelLimit), w - 2))}`];
  const shown = replayedCommand(input.output);
  const label = fitWidth(toolLabel("Bash", { command: input.command }, labelLimit), w - 2 - shown.note.length);
  const rows = ["", ...echo(`!${input.command}`, w, t)];
  rows.push(`${input.failed ? t.red(FAILED_GLYPH) : OK_GLYPH} ${t.dim(label)}${shown.note}`);
  if (shown.text.trim()) rows.push(...commandOutputRows(shown.text, lineCount(shown.text), w, t));
  return rows;
}

/**
 * The prompt of the turn a compaction record keeps when what it keeps begins with the answer (a
 * kept turn is an answer with its tool results, so its prompt may be among the replaced messages):
 * the newest user message the record quotes, else the first prompt, the only one before it.
 */
export function keptTurnPrompt(record: CompactionInfo, next: Message | undefined): string | undefined {
  if (next?.role !== "assistant") return undefined;
  return record.userMessages?.at(-1) ?? (record.task || undefined);
}

/** Messages shown from a resumed session, to see where it left off. */
const RESUME_SHOWN = 8;

/** A resumed session's newest messages, and how many in memory come before them (for `replayRows`). */
export function resumeWindow(executor: {
  runtime: { recent(count: number): readonly Message[] };
  facts(): { messagesInMemory: number };
}): [readonly Message[], number] {
  const shown = executor.runtime.recent(RESUME_SHOWN);
  return [shown, Math.max(0, executor.facts().messagesInMemory - shown.length)];
}

/**
 * A stored Bash result as the live row showed it: the output without the facts Bash appends for
 * the model ("Exit code: 3" after a blank line), which would count as lines, and the exit note.
 */
export function replayedCommand(text: string): { text: string; note: string } {
  const cut = text.lastIndexOf("\n\n");
  if (cut < 0) return { text, note: "" };
  const code = /^Exit code: (-?\d+)/m.exec(text.slice(cut + 2))?.[1];
  const body = text.slice(0, cut);
  return { text: body, note: code && code !== "0" ? ` · exit ${code}` : "" };
}

const lineCount = (text: string) => text.replace(/\n+$/, "").split("\n").length;

/** A replayed call's result in one row: its first line, and how many more there were. */
function replayedResult(text: string, isError: boolean, width: number, t: Theme): string {
  const lines = text.replace(/\n$/, "").split("\n");
  const more = lines.length > 1 ? ` … (${lines.length} lines)` : "";
  const row = fitWidth(`  ⎿ ${inertLine(lines[0] ?? "")}${more}`, width);
  return isError ? t.red(row) : t.dim(row);
}
