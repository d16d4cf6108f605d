// The pure decisions of a condense, apart from the ContextManager that carries them out (it keeps
// the state, the store writes and the model calls): whether the in-memory window presses, whether a
// prune alone suffices, what a record replaces, the record and the turns kept after it (or why it
// would not shrink the context), and how the outcome is reported.

import type { AgentEvent } from "../protocol/events.ts";
import type { CompactionInfo, Message } from "../protocol/message.ts";
import type { Config } from "../config/config.ts";
import { lastRecordIndex } from "./context.ts";
import { keptStart, windowTail } from "./kept-turns.ts";
import { prunedSavings, selectPrune } from "./prune.ts";
import { type BuiltRecord, type RecordParts, type RecordSizing, fitRecord, shorter } from "./record-fit.ts";
import { CHARS_PER_TOKEN, estimateTokens } from "./token-estimate.ts";

export type CondenseTrigger = "auto" | "manual" | "reactive";
export type CondenseMethod = "prune" | "summary" | "window";

export interface CompactOutcome {
  tokensBefore: number;
  tokensAfter: number;
  method: CondenseMethod | "none";
  trigger: CondenseTrigger;
  /** Messages the condense stood in for (0 for a prune or when there was nothing to condense). */
  replaced: number;
  /** Whole turns kept after the record (summary or window). */
  keptTurns?: number;
  /** Why nothing was condensed although there was something to condense: it would not shrink. */
  failure?: string;
}

/** What one condense is asked for. `hardness` (reactive retries) keeps fewer recent turns. */
export interface CondenseOptions {
  signal: AbortSignal;
  focus?: string;
  hardness?: number;
  context?: Message[];
  pressure?: boolean;
  /** Never condense into the last keepLastTurns turns (a condense nobody needs urgently). */
  keepWhole?: boolean;
  /** `/compact --keep-last N`: keep exactly the last N whole turns (instead of keepLastTurns). */
  keepLast?: number;
}

/** The in-memory window (count and bytes) may fill this far before the context is condensed. */
const RING_SHARE = 0.75;

/** Whether the context fills the in-memory window (its count or bytes) far enough to condense. */
export function ringPressure(context: readonly Message[], store: Config["store"]): boolean {
  const { maxMessages, maxBytes } = store;
  return context.length > maxMessages * RING_SHARE || estimateTokens(context) * CHARS_PER_TOKEN > maxBytes * RING_SHARE;
}

/** A prune is enough when it brings the context under this share of the threshold. */
const PRUNE_ENOUGH = 0.6;

/** The pruned copies that leave plenty of room on their own, or undefined when a prune is not enough. */
export function enoughPrune(
  context: Message[],
  tokensBefore: number,
  keep: number,
  limit: number,
): Map<string, Message> | undefined {
  const pruned = selectPrune(context, keep);
  if (!pruned.size) return undefined;
  const after = tokensBefore - prunedSavings(context, pruned);
  return after <= limit * PRUNE_ENOUGH ? pruned : undefined;
}

/** The outcome of a condense that changed nothing (`failure` says why, when it could not shrink). */
export function unchanged(tokensBefore: number, trigger: CondenseTrigger, failure?: string): CompactOutcome {
  const outcome: CompactOutcome = { tokensBefore, tokensAfter: tokensBefore, method: "none", trigger, replaced: 0 };
  return failure === undefined ? outcome : { ...outcome, failure };
}

/** Where the scope of a condense is read from. */
export interface ScopeSource {
  window: readonly Message[];
  /** The last compaction record seen, when memory pressure evicted it from the window. */
  lastRecord: Message | undefined;
  loadTask(): Promise<Message | undefined>;
  taskText(): Promise<string>;
}

export interface CondenseScope {
  body: Message[];
  split: number;
  previous: CompactionInfo | undefined;
  task: string;
  firstTask: string | undefined;
}

/**
 * What a condense may replace: the body after the last record (or the first prompt), where its
 * last `keep` whole turns start, the record before it and the task the new record carries.
 */
export async function condenseScope(
  src: ScopeSource,
  keep: number,
  keepWhole: boolean | undefined,
): Promise<CondenseScope> {
  const { window } = src;
  const at = lastRecordIndex(window);
  const previous = at >= 0 ? window[at]?.compaction : src.lastRecord?.compaction;
  const task = previous?.task ?? (await src.taskText());
  let body: Message[];
  if (at >= 0) body = window.slice(at + 1);
  else if (previous) body = [...window];
  else {
    const first = await src.loadTask();
    body = first && window[0]?.id === first.id ? window.slice(1) : [...window];
  }
  const split = keptStart(body, keep, keepWhole);
  const firstTask = at < 0 ? (await src.loadTask())?.id : undefined;
  return { body, split, previous, task, firstTask };
}

/** How the record is fitted: the threshold, the reactive hardness and `--keep-last`. */
export interface RecordFit {
  limit: number;
  hardness: number;
  keepLast: number | undefined;
  sizing: RecordSizing;
}

export type RecordPlan =
  | { built: BuiltRecord & { tail: Message[] }; parts: RecordParts }
  | { reason: string; message: string };

/**
 * The record and the turns kept after it (for the sliding window: as many as fit). A condense
 * must leave the request smaller than it found it: else fewer turns are kept, down to none, and
 * when even none would not do, the reason (with the summary's `failure`, if any) instead.
 */
export function planRecord(
  scope: CondenseScope,
  summary: string | undefined,
  base: { trigger: CondenseTrigger; tokensBefore: number; failure: string | undefined },
  fit: RecordFit,
): RecordPlan {
  const { body, split, previous, task, firstTask } = scope;
  const { trigger, tokensBefore, failure } = base;
  const method: "summary" | "window" = summary !== undefined ? "summary" : "window";
  const parts: RecordParts = { body, previous, firstTask, task, summary, method, trigger, tokensBefore };
  let tail = body.slice(split);
  // The window keeps what fits, but never more than `--keep-last` asked for.
  if (method === "window") {
    tail = shorter(windowTail(body, fit.limit, fit.hardness), fit.keepLast === undefined ? undefined : tail);
  }
  const built = fitRecord(parts, tail, fit.sizing);
  if (built.tokensAfter < tokensBefore) return { built, parts };
  const why = `it would not make the context smaller (${tokensBefore} tokens before, ${built.tokensAfter} after)`;
  const reason = failure ? `${failure}, and the sliding window: ${why}` : why;
  return { reason, message: `could not compact the conversation: ${reason}; nothing was changed` };
}

/** The warning a sliding-window condense gives: the summary failed, older messages are in the archive. */
export function windowWarning(failure: string | undefined, kept: number, count: number): string {
  return (
    `could not summarise the conversation (${failure}): the context now keeps the newest ${kept} ` +
    `messages and a note that ${count} earlier ones are in the session archive`
  );
}

/** The event that reports a condense. */
export function boundaryEvent(outcome: CompactOutcome): AgentEvent {
  return {
    type: "compact_boundary",
    trigger: outcome.trigger,
    method: outcome.method as CondenseMethod,
    tokens_before: outcome.tokensBefore,
    tokens_after: outcome.tokensAfter,
    messages_replaced: outcome.replaced,
  };
}
