// The compaction record a condense appends, sized to fit: it stands for all of the body but the
// turns it keeps, and keeps fewer turns, down to none, until the request is smaller than before.

import type { CompactionInfo, Message } from "../protocol/message.ts";
import { USER_MESSAGES_TOKENS, keepUserMessages, recordWithKept } from "./compaction-record.ts";
import { buildContext } from "./context.ts";
import { withoutOldestTurn } from "./kept-turns.ts";
import { promptText } from "./summary-prompt.ts";

/** What one condense replaces and with what. */
export interface RecordParts {
  /** Everything after the last record (or the first prompt). */
  body: Message[];
  previous: CompactionInfo | undefined;
  /** The first prompt's id, when no record came before. */
  firstTask: string | undefined;
  task: string;
  summary: string | undefined;
  method: "summary" | "window";
  trigger: CompactionInfo["trigger"];
  tokensBefore: number;
}

/** How a record is measured: its budgets and the session's token count. */
export interface RecordSizing {
  /** Tokens of the system prompt and tools. */
  fixedTokens: number;
  /** A record part's share: its fixed budget, or less on a small window. */
  budget(tokens: number): number;
  /** Messages in the session (archive and memory). */
  messageCount(): number;
  tokensOf(context: readonly Message[]): number;
}

export interface BuiltRecord {
  info: CompactionInfo;
  record: Message;
  copies: Message[];
  replaced: Message[];
  tokensAfter: number;
}

/** The compaction record standing for all of `body` but `tail`, with its kept copies and their tokens. */
export function recordFor(p: RecordParts, tail: Message[], sizing: RecordSizing): BuiltRecord {
  const replaced = p.body.slice(0, p.body.length - tail.length);
  const userMessages = keepUserMessages(
    [...(p.previous?.userMessages ?? []), ...replaced.map(promptText).filter((t): t is string => t !== undefined)],
    sizing.budget(USER_MESSAGES_TOKENS),
  );
  const info: CompactionInfo = {
    trigger: p.trigger,
    firstId: p.previous?.firstId ?? p.firstTask ?? replaced[0]?.id ?? "",
    lastId: replaced.at(-1)?.id ?? p.previous?.lastId ?? "",
    // Without an earlier record the first prompt is replaced too.
    count: (p.previous?.count ?? 1) + replaced.length,
    tokensBefore: p.tokensBefore,
    tokensAfter: 0,
    keptIds: [],
    method: p.method,
    task: p.task,
    ...(p.summary !== undefined ? { summary: p.summary } : p.previous?.summary ? { summary: p.previous.summary } : {}),
    userMessages,
  };
  const { record, copies } = recordWithKept(info, tail, sizing.fixedTokens);
  const total = sizing.messageCount() + 1 + copies.length;
  const tokensAfter = sizing.tokensOf(buildContext([record, ...copies], { total }));
  return { info, record, copies, replaced, tokensAfter };
}

/**
 * The record keeping as much of `tail` as leaves the request smaller than `p.tokensBefore`: whole
 * turns are dropped, oldest first, down to none. Its `tokensAfter` is not smaller when even that fails.
 */
export function fitRecord(p: RecordParts, tail: Message[], sizing: RecordSizing): BuiltRecord & { tail: Message[] } {
  let kept = tail;
  let built = recordFor(p, kept, sizing);
  while (built.tokensAfter >= p.tokensBefore && kept.length) {
    kept = withoutOldestTurn(kept);
    built = recordFor(p, kept, sizing);
  }
  return { ...built, tail: kept };
}

/** `a`, or `b` when given and shorter. */
export const shorter = (a: Message[], b: Message[] | undefined): Message[] =>
  b !== undefined && b.length < a.length ? b : a;
