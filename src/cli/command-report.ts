// How a headless slash command reports what it did, in each output format: text on stdout, one
// result object for json, a result line for stream-json (after the lines the run already wrote).

import type { OutputFormat } from "../config/config.ts";
import type { SubmissionOutcome } from "../executor/executor.ts";
import { inertLine } from "../render/inert.ts";
import { formatTokens, tokenChange } from "./output/token-count.ts";

/** `compacted: 172k → 21k tokens, kept the last 4 turns`. */
export function compactedLine(tokensBefore: number, tokensAfter: number, keptTurns?: number): string {
  const kept = keptTurns === undefined ? "" : `, kept the last ${keptTurns} turn${keptTurns === 1 ? "" : "s"}`;
  return `compacted: ${tokenChange(tokensBefore, tokensAfter)} tokens${kept}`;
}

export interface CommandReport {
  command: string;
  lines: string[];
  /** Absent when the run saved no session (a command in a new session that got no message). */
  sessionId: string | undefined;
  durationMs: number;
  outcome: SubmissionOutcome;
}

export function formatCommandReport(format: OutputFormat, r: CommandReport): string {
  const lines = [...r.lines];
  const c = r.outcome.compaction;
  if (c)
    lines.push(
      c.method === "none"
        ? `nothing to compact: ${formatTokens(c.tokensBefore)} tokens`
        : compactedLine(c.tokensBefore, c.tokensAfter, c.keptTurns),
    );
  if (format === "text") return lines.length ? `${lines.map((l) => inertLine(l)).join("\n")}\n` : "";
  const interrupted = r.outcome.status === "interrupted";
  const failed = r.outcome.status === "failed";
  const result: Record<string, unknown> = {
    type: "result",
    subtype: interrupted ? "interrupted" : failed ? "error_during_execution" : "success",
    is_error: interrupted || failed,
    result: failed ? (r.outcome.error ?? "") : lines.join("\n"),
    // null, not the id of a session that was never saved: nothing could resume it.
    session_id: r.sessionId ?? null,
    command: r.command,
    num_turns: 0,
    duration_ms: r.durationMs,
  };
  if (c)
    result.compaction = {
      tokens_before: c.tokensBefore,
      tokens_after: c.tokensAfter,
      method: c.method,
      ...(c.keptTurns !== undefined ? { kept_turns: c.keptTurns } : {}),
    };
  return `${JSON.stringify({ ...result, uuid: crypto.randomUUID() })}\n`;
}
