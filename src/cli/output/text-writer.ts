// `-o text` (the default): the answer on stdout, tool activity, retries and warnings on stderr,
// so `synapse "…" > answer.md` captures only the answer.
//
// On a terminal the answer streams as it arrives. On a pipe each turn's text is written when the
// turn's stream has finished, so a stream retried mid-way never leaves a duplicate in a file.

import type { AgentEvent } from "../../protocol/events.ts";
import { textOf } from "../../protocol/message.ts";
import type { Colors } from "../../render/colors.ts";
import { LiveTail } from "../../render/live-tail.ts";
import { toolLabel } from "../../render/tool-label.ts";
import { retryNotice } from "./notices.ts";
import type { OutputStreams, OutputWriter } from "./types.ts";

export interface TextWriterOptions {
  quiet: boolean;
  /** Colours for stderr (plain when colour is off). */
  colors: Colors;
  labelLimit: number;
  columns(): number;
}

export function createTextWriter(streams: OutputStreams, opts: TextWriterOptions): OutputWriter {
  const c = opts.colors;
  const tail = streams.errIsTTY && !opts.quiet ? new LiveTail(streams.err, opts.columns, opts.colors.dim) : undefined;
  let streamedThisTurn = "";
  let wroteAnswer = false;
  let answerEndsWithNewline = true;

  const answer = (text: string) => {
    if (!text) return;
    streams.out(text);
    wroteAnswer = true;
    answerEndsWithNewline = text.endsWith("\n");
  };
  const note = (text: string) => {
    if (!opts.quiet) streams.err(`${text}\n`);
  };

  return {
    handle(event: AgentEvent) {
      switch (event.type) {
        case "text_delta":
          if (streams.outIsTTY) answer(event.text);
          streamedThisTurn += event.text;
          break;
        case "turn_retry":
          note(c.yellow(`⟳ ${retryNotice(event)}`));
          if (streams.outIsTTY && streamedThisTurn) note(c.dim("(the partial answer above is discarded)"));
          streamedThisTurn = "";
          break;
        case "assistant": {
          const text = textOf(event.message);
          if (!streams.outIsTTY) answer(text);
          if (text && !text.endsWith("\n") && event.message.content.some((b) => b.type === "tool_use")) answer("\n");
          streamedThisTurn = "";
          break;
        }
        case "tool_start":
          note(c.cyan(`● ${toolLabel(event.name, event.input, opts.labelLimit)}`));
          break;
        case "tool_progress":
          tail?.update(event.text);
          break;
        case "tool_end":
          tail?.clear();
          note(`  ${event.is_error ? c.red("⎿ " + event.summary) : c.dim("⎿ " + event.summary)}`);
          break;
        case "warning":
          streams.err(`${c.yellow("warning:")} ${event.message}\n`);
          break;
        case "result": {
          const r = event.result;
          if (wroteAnswer && !answerEndsWithNewline) answer("\n");
          if (r.error) streams.err(`${c.red("error:")} ${r.error}\n`);
          else if (r.subtype === "error_during_execution") streams.err(`${c.red("error:")} ${r.result}\n`);
          else if (r.subtype === "error_max_turns") streams.err(`${c.red("error:")} reached the maximum number of turns (${r.num_turns})\n`);
          else if (r.subtype === "interrupted") streams.err(`${c.yellow("interrupted")}\n`);
          break;
        }
      }
    },
  };
}
