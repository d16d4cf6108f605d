// `-o text` (the default): the answer on stdout, tool activity, retries and warnings on stderr,
// so `synapse "…" > answer.md` captures only the answer.
//
// On a terminal the answer streams as it arrives. On a pipe each turn's text is written when the
// turn's stream has finished, so a stream retried mid-way never leaves a duplicate in a file.

import { assertNever } from "../../protocol/assert-never.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import { INTERRUPTED_NOTE, type Message, textOf } from "../../protocol/message.ts";
import type { Colors } from "../../render/colors.ts";
import { LiveTail } from "../../render/live-tail.ts";
import { TaskRowsDisplay, TaskRowsLog } from "../../render/task-rows.ts";
import { inert, inertJson, inertLine } from "../../render/inert.ts";
import { toolLabel, truncateOneLine } from "../../render/tool-label.ts";
import { compactNotice, compactStartNotice, permissionNotice, retryNotice } from "./notices.ts";
import { resultErrorText } from "./result-error.ts";
import type { OutputStreams, OutputWriter } from "./types.ts";

export interface TextWriterOptions {
  quiet: boolean;
  /** Colours for stderr (plain when colour is off). */
  colors: Colors;
  labelLimit: number;
  columns(): number;
  /** Terminal height, so a batch's status rows never outgrow the screen. */
  lines?(): number;
  /** --json-schema: stdout gets the final answer's JSON value alone, none of the model's text. */
  structured?: boolean;
}

/** A finished turn's text (less the note an interrupted turn ends with), and whether it calls tools. */
function finishedTurn(message: Message): { text: string; callsTools: boolean } {
  const text = textOf(message);
  const cut = message.stop_reason === "interrupted" && text.endsWith(INTERRUPTED_NOTE);
  return {
    text: cut ? text.slice(0, -INTERRUPTED_NOTE.length) : text,
    callsTools: message.content.some((b) => b.type === "tool_use"),
  };
}

export function createTextWriter(streams: OutputStreams, opts: TextWriterOptions): OutputWriter {
  const c = opts.colors;
  const tail = streams.errIsTTY && !opts.quiet ? new LiveTail(streams.err, opts.columns, opts.colors.dim) : undefined;
  // Sub-agents: fixed rows redrawn in place on a terminal, else one plain line per start and end.
  const rows =
    streams.errIsTTY && !opts.quiet
      ? new TaskRowsDisplay(streams.err, opts.columns, c, opts.labelLimit, 100, opts.lines)
      : undefined;
  const taskLog = rows ? undefined : new TaskRowsLog(opts.labelLimit);
  const taskIds = new Set<string>();
  const err = (text: string) => (rows ? rows.above(text) : streams.err(text));
  let streamedThisTurn = "";
  let wroteAnswer = false;
  let answerEndsWithNewline = true;

  const answer = (text: string) => {
    if (!text || opts.structured) return;
    // On a terminal the model's escape sequences would act on it (see README "Output"); in a file
    // or pipe the answer's bytes are kept as the model wrote them.
    streams.out(streams.outIsTTY ? inert(text.replace(/\r\n/g, "\n")) : text);
    wroteAnswer = true;
    answerEndsWithNewline = text.endsWith("\n");
  };
  const note = (text: string) => {
    if (!opts.quiet) err(`${text}\n`);
  };
  // A status row never wraps on a terminal, and is never longer than TOOL_RESULT_SUMMARY_LIMIT.
  const rowLimit = (indent: number) =>
    streams.errIsTTY ? Math.max(10, Math.min(opts.labelLimit, opts.columns() - indent)) : opts.labelLimit;

  return {
    handle(event: AgentEvent) {
      // A sub-agent's own turns reach the parent only as its row and its final result.
      if ((event.type === "assistant" || event.type === "user") && event.parent_tool_use_id) return;
      if ((event.type === "tool_start" || event.type === "tool_end") && taskIds.has(event.id)) return;
      switch (event.type) {
        case "task_start":
        case "task_progress":
        case "task_end": {
          if (event.type === "task_start") taskIds.add(event.id);
          if (rows) rows.handle(event);
          const line = taskLog?.line(event);
          if (line) note(line);
          break;
        }
        case "text_delta":
          if (streams.outIsTTY) answer(event.text);
          streamedThisTurn += event.text;
          break;
        case "compact_boundary":
          note(c.dim(compactNotice(event)));
          break;
        case "compact_start":
          note(c.dim(compactStartNotice(event)));
          break;
        case "turn_retry":
          note(c.yellow(`⟳ ${inertLine(retryNotice(event))}`));
          if (streams.outIsTTY && streamedThisTurn) note(c.dim("(the partial answer above is discarded)"));
          streamedThisTurn = "";
          break;
        case "assistant": {
          const { text, callsTools } = finishedTurn(event.message);
          // In a file or pipe stdout is the answer alone (`> answer.md`), as `claude -p` writes it:
          // what the model says before its tool calls is narration, shown beside the tool activity.
          if (streams.outIsTTY) {
            if (text && !text.endsWith("\n") && callsTools) answer("\n");
          } else if (!callsTools) answer(text);
          else if (text.trim()) note(inert(text.trimEnd()));
          streamedThisTurn = "";
          break;
        }
        case "tool_start": {
          // "● " + name + "(" + argument + ")": the argument gets what the name leaves of the row.
          // Arguments that were not JSON are shown as the model sent them.
          const raw = event.raw_input;
          const input = raw === undefined ? event.input : `invalid JSON: ${raw}`;
          note(c.cyan(`● ${toolLabel(event.name, input, rowLimit(6 + Math.min(event.name.length, 40)))}`));
          break;
        }
        case "tool_progress":
          tail?.update(event.text);
          break;
        case "tool_end": {
          tail?.clear();
          // A failure is marked without colour too (NO_COLOR, a log): ✗, and a command's exit code.
          const exitCode = event.display?.kind === "command" ? event.display.exit_code : null;
          const code = exitCode ? `exit ${exitCode} · ` : "";
          const failed = event.is_error ? `✗ ${code}` : "";
          const summary = `⎿ ${failed}${truncateOneLine(event.summary, Math.max(10, rowLimit(6) - failed.length))}`;
          note(`  ${event.is_error ? c.red(summary) : c.dim(summary)}`);
          break;
        }
        case "warning":
          err(`${c.yellow("warning:")} ${inert(event.message)}\n`);
          break;
        case "permission_denied":
          // Printed even with -q: a refused call changes what the run did.
          err(`${c.yellow(inertLine(permissionNotice(event)))}\n`);
          break;
        case "result": {
          rows?.stop();
          const r = event.result;
          if (wroteAnswer && !answerEndsWithNewline) answer("\n");
          if (r.structured_output !== undefined) streams.out(`${inertJson(r.structured_output)}\n`);
          const failure = resultErrorText(r, true);
          if (failure !== undefined) streams.err(`${c.red("error:")} ${inert(failure)}\n`);
          else if (r.subtype === "interrupted") streams.err(`${c.yellow("interrupted")}\n`);
          break;
        }
        // The session's start says nothing here; tool results show as each call's summary line.
        case "init":
        case "user":
          break;
        default:
          assertNever(event, "agent event");
      }
    },
  };
}
