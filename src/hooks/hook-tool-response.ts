// A PostToolUse hook's `tool_response`: the tool's own fields in Claude Code's shape (what the tool
// knows, protocol/hook-events.ts), screened as the model's copy of the result is and bounded, then
// Synapse's `content` and `is_error`. The hook input leaves the process for a user's script, and a
// sub-agent's crosses to the main thread: no secret and no hidden path may ride along. Pure.

import type { ToolResponseFacts } from "../protocol/hook-events.ts";
import { headUnits } from "../text/code-point.ts";

/** Characters of the tool's fields a hook gets in all; past them strings are cut and lists end. */
export const MAX_TOOL_RESPONSE_CHARS = 256 * 1024;

export interface ResponseScreen {
  /** The model's screening of a tool's text: secrets redacted and, for Glob and Grep, protected paths' lines hidden. */
  text(text: string): string;
  /** Secrets redacted, nothing hidden: for fields that are not path lines. */
  redact(text: string): string;
}

/** The model's copy of the result, as PostToolUse hooks always got it. */
export interface ModelCopy {
  content: string;
  is_error: boolean;
}

export function hookToolResponse(
  facts: ToolResponseFacts | undefined,
  model: ModelCopy,
  screen: ResponseScreen,
  max = MAX_TOOL_RESPONSE_CHARS,
): Record<string, unknown> {
  if (!facts) return { ...model };
  const budget = { left: max };
  // Where Claude Code's shape has a `content` of its own (Write's text, Grep's lines), a script
  // written for it reads that: the tool's field wins. `is_error` is always Synapse's.
  return {
    ...model,
    ...(bounded(screened(facts, screen), budget) as Record<string, unknown>),
    is_error: model.is_error,
  };
}

/**
 * `filenames` keeps only the paths the model may see (a path the screen changes is dropped, and
 * `numFiles` counts what is left); a top-level `content` (Grep's lines, Write's text) gets the
 * model's screening; every other string has its secrets redacted.
 */
function screened(facts: ToolResponseFacts, screen: ResponseScreen): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let dropped = 0;
  for (const [key, value] of Object.entries(facts)) {
    if (key === "filenames" && Array.isArray(value)) {
      const kept = value.filter((p): p is string => typeof p === "string" && screen.text(p) === p);
      dropped = value.length - kept.length;
      out[key] = kept;
    } else if (key === "content" && typeof value === "string") out[key] = screen.text(value);
    else out[key] = redactedDeep(value, screen.redact);
  }
  if (typeof out.numFiles === "number") out.numFiles -= dropped;
  return out;
}

/** Deeper than this (only a server's structured result can be), a value is not walked. */
const MAX_DEPTH = 32;
const TOO_DEEP = "[cut: nested too deep]";

function redactedDeep(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactedDeep(v, redact, depth + 1));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactedDeep(v, redact, depth + 1)]));
  return value;
}

/** What a long string cut early leaves for the fields after it (their names, short values, notes). */
const RESERVE = 1024;

/**
 * Everything spends the budget in key order, about what its JSON takes (a string its length and
 * quotes, a name the same and a colon, a number or such 8): a string that does not fit is cut,
 * keeping the reserve for what follows, and ends with a note; once the budget is spent lists and
 * objects end.
 */
export function bounded(value: unknown, budget: { left: number }, depth = 0): unknown {
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (typeof value === "string") {
    if (value.length + 3 <= budget.left) {
      budget.left -= value.length + 3;
      return value;
    }
    const kept = headUnits(value, Math.max(0, budget.left - RESERVE));
    const cut = `${kept}[cut: ${value.length - kept.length} more characters]`;
    budget.left -= cut.length + 3;
    return cut;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      if (budget.left <= 0) break;
      out.push(bounded(item, budget, depth + 1));
    }
    return out;
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (budget.left <= 0) break;
      budget.left -= key.length + 4;
      out[key] = bounded(item, budget, depth + 1);
    }
    return out;
  }
  budget.left -= 8;
  return value;
}
