// What the interactive screen's live part shows at one moment: the work in progress, then the
// separator, the prompt (or a tool call's question in its place), hints, and the status line.

import { homedir } from "node:os";
import { contextPercent } from "../../executor/commands/status.ts";
import type { SessionFacts } from "../../executor/slash-command.ts";
import { spendLabel } from "../../llm/pricing.ts";
import type { Frame } from "../../render/screen-diff.ts";
import { statusLine } from "../../render/status-line.ts";
import { fitWidth } from "../../render/text-width.ts";
import type { Theme } from "../../render/theme.ts";
import type { ApprovalPrompt } from "./approval-prompt.ts";
import type { PermissionMode } from "../../config/config.ts";
import type { PromptEditor } from "./prompt-editor.ts";
import { safetyParts } from "./safety-status.ts";
import type { SessionView } from "./session-view.ts";

export interface FrameParts {
  theme: Theme;
  /** Columns to draw in and rows on the screen. */
  width: number;
  rows: number;
  editor: PromptEditor;
  view: SessionView;
  spin: number;
  candidates: string[];
  /** The command list under a `/name` being typed (slash-menu.ts), rows already made. */
  menu?: string[];
  hint: string | undefined;
  /** Undefined until the session has opened. */
  facts: SessionFacts | undefined;
  approval: ApprovalPrompt | undefined;
  /** The configured mode, shown while the session opens (its sandbox is known only then). */
  startMode?: PermissionMode;
}

export function composeFrame(p: FrameParts): Frame {
  const { theme, width: w, editor, view } = p;
  const layout = editor.layout(w - 2);
  let promptRows = layout.rows.map((r, i) => (i === 0 ? `${theme.bold(theme.cyan("›"))} ${r}` : `  ${r}`));
  let caretRow = layout.row;
  // A prompt taller than the screen shows the rows around the caret.
  const roomForPrompt = Math.max(1, p.rows - 4);
  if (promptRows.length > roomForPrompt) {
    const start = Math.min(Math.max(0, caretRow - roomForPrompt + 1), promptRows.length - roomForPrompt);
    promptRows = promptRows.slice(start, start + roomForPrompt);
    caretRow -= start;
  }
  const extra: string[] = [];
  for (const row of p.menu ?? []) extra.push((row.startsWith("❯") ? theme.cyan : theme.dim)(fitWidth(row, w)));
  if (p.candidates.length) extra.push(theme.dim(fitWidth(p.candidates.join("  "), w)));
  if (p.hint) extra.push(theme.yellow(fitWidth(p.hint, w)));
  const facts = p.facts;
  const status = facts
    ? statusLine(
        {
          model: facts.model,
          contextPercent: contextPercent(facts.contextTokens, facts.contextWindow),
          spend: spendLabel(facts.usage, facts.costUsd),
          sessionId: facts.sessionId,
          cwd: facts.cwd,
          notice: view.notice,
          safety: facts.permissionMode ? safetyParts(facts.permissionMode, facts.sandbox) : undefined,
        },
        w,
        theme,
        homedir(),
      )
    : p.startMode
      ? statusLine(
          { model: "starting…", sessionId: "", cwd: "", safety: safetyParts(p.startMode, undefined) },
          w,
          theme,
        )
      : theme.dim(fitWidth("starting…", w));
  if (p.approval) {
    // Under it stay the separator and the status line (and a spare row); the rest is its room.
    promptRows = p.approval.render(Math.max(4, p.rows - 3 - extra.length), w).map((l) => fitWidth(l, w));
    caretRow = promptRows.length - 1;
  }
  const bottom = [theme.dim("─".repeat(Math.min(w, 200))), ...promptRows, ...extra, status];
  const live = view.liveRows(p.spin, Math.max(0, p.rows - bottom.length - 1), p.approval !== undefined);
  return { rows: [...live, ...bottom], cursor: { row: live.length + 1 + caretRow, col: 2 + layout.col } };
}
