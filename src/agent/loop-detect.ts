// Runaway loops, as Gemini CLI detects them: the same tool call with the same input `limit` times in
// a row, or a turn whose text ends in the same piece repeated over and over. The first time the
// model is told (in a tool result); if it goes on, the run is stopped. Pure: the runner feeds it
// each turn and acts on the verdicts.

import type { ContentBlock, ToolUseBlock } from "../protocol/message.ts";
import { withNote } from "./output-limit.ts";
import { canonicalJson } from "../text/canonical-json.ts";
import { itemAt } from "../text/checked-index.ts";

export type LoopVerdict = { kind: "ok" } | { kind: "warn"; note: string } | { kind: "stop"; reason: string };

/** A text loop: the turn's text ends in at least this many copies of one piece... */
export const TEXT_REPEATS = 10;
/** ...covering at least this many characters (ten dashes are a rule, not a loop)... */
export const TEXT_LOOP_MIN_CHARS = 500;
/** ...of at most this length (a longer repeated piece is checked no further). */
export const TEXT_LOOP_MAX_PERIOD = 1000;

const OK: LoopVerdict = { kind: "ok" };

/**
 * The length of the piece `text` ends repeating (at least TEXT_REPEATS times over at least
 * TEXT_LOOP_MIN_CHARS, trailing white space aside), or 0. Scans back from the end for each period,
 * stopping at the first difference, so ordinary text costs about one comparison per period.
 */
export function repeatedTailPeriod(text: string): number {
  const s = text.trimEnd();
  const n = s.length;
  for (let p = 1; p <= TEXT_LOOP_MAX_PERIOD && p * TEXT_REPEATS <= n; p++) {
    const span = Math.max(p * TEXT_REPEATS, TEXT_LOOP_MIN_CHARS);
    if (span > n) break;
    let i = n - 1 - p;
    const stop = n - span;
    while (i >= stop && s.charCodeAt(i) === s.charCodeAt(i + p)) i--;
    // A piece of white space alone (indentation, blank lines) is layout, not a loop.
    if (i < stop && s.slice(n - p).trim()) return p;
  }
  return 0;
}

function describe(call: ToolUseBlock): string {
  const input = canonicalJson(call.input);
  return `${call.name} ${input.length > 120 ? `${input.slice(0, 119)}…` : input}`;
}

/** Follows one run's turns. `limit` 0 turns detection off. */
export class LoopDetector {
  private lastCall = "";
  private streak = 0;
  private callWarned = false;
  private textWarned = false;

  constructor(private readonly limit: number) {}

  /** A tool call, in the order the model made them (across turns). */
  call(call: ToolUseBlock): LoopVerdict {
    if (this.limit <= 0) return OK;
    const key = `${call.name}\0${canonicalJson(call.input)}`;
    if (key === this.lastCall) this.streak++;
    else {
      this.lastCall = key;
      this.streak = 1;
      this.callWarned = false;
    }
    if (this.streak < this.limit) return OK;
    if (!this.callWarned) {
      this.callWarned = true;
      return {
        kind: "warn",
        note:
          `[Loop warning: this is ${this.streak} identical ${call.name} calls in a row, with the same input and ` +
          "so the same result. Do something different (another command, another file, or answer with what you have); " +
          "one more identical call stops the run.]",
      };
    }
    return { kind: "stop", reason: `the same ${describe(call)} call ${this.streak} times in a row` };
  }

  /** The text of a turn that also made tool calls (a final answer ends the run anyway). */
  text(text: string): LoopVerdict {
    if (this.limit <= 0) return OK;
    const period = repeatedTailPeriod(text);
    if (!period) return OK;
    if (!this.textWarned) {
      this.textWarned = true;
      return {
        kind: "warn",
        note:
          "[Loop warning: your last message ended repeating the same text over and over. Do not repeat it; " +
          "go on with the task. If it happens again the run is stopped.]",
      };
    }
    const piece = text.trimEnd().slice(-period);
    const shown = piece.length > 60 ? `${piece.slice(0, 59)}…` : piece;
    return { kind: "stop", reason: `the answer repeated the same text over and over ("${shown}")` };
  }

  /** One turn: every verdict (calls in order, then the text); a stop wins over warnings. */
  turn(text: string, calls: readonly ToolUseBlock[]): { stop?: string; notes: Map<string, string> } {
    const notes = new Map<string, string>();
    let stop: string | undefined;
    for (const call of calls) {
      const v = this.call(call);
      if (v.kind === "stop") stop ??= v.reason;
      if (v.kind === "warn") notes.set(call.id, v.note);
    }
    const t = calls.length ? this.text(text) : OK;
    if (t.kind === "stop") stop ??= t.reason;
    if (t.kind === "warn" && calls.length) {
      const id = itemAt(calls, calls.length - 1).id;
      notes.set(id, notes.has(id) ? `${notes.get(id)}\n${t.note}` : t.note);
    }
    return { stop, notes };
  }
}

/** The results with each loop note added to its call's result. */
export function noteLoops(results: ContentBlock[], notes: ReadonlyMap<string, string>): ContentBlock[] {
  if (!notes.size) return results;
  return results.map((b) => {
    const note = b.type === "tool_result" ? notes.get(b.tool_use_id) : undefined;
    return b.type === "tool_result" && note !== undefined ? withNote(b, note) : b;
  });
}
