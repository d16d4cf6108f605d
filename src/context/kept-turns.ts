// Which recent whole turns a condense keeps after its record: the last keepLastTurns (fewer when
// that would keep everything), or for the sliding-window fallback as many as fit its share.

import type { Message } from "../protocol/message.ts";
import { estimateTokens } from "./token-estimate.ts";
import { groupTurns, tailStart } from "./turns.ts";

/** The sliding-window fallback keeps recent turns up to this share of the threshold. */
const WINDOW_KEEP_SHARE = 0.4;

/**
 * Where the kept turns of `body` start: the last `keep` whole turns; when those are all of it, one
 * turn fewer (at least one turn is replaced) unless `keepWhole`.
 */
export function keptStart(body: Message[], keep: number, keepWhole: boolean | undefined): number {
  let split = tailStart(body, keep);
  if (split === 0 && body.length && !keepWhole)
    split = tailStart(body, Math.min(keep, Math.max(0, groupTurns(body).length - 1)));
  return split;
}

/**
 * The newest whole turns of `body` that fit the kept share of `limit` (half of it from hardness 2
 * on); never the first turn, so something is always replaced.
 */
export function windowTail(body: Message[], limit: number, hardness: number): Message[] {
  const room = limit * (hardness >= 2 ? WINDOW_KEEP_SHARE / 2 : WINDOW_KEEP_SHARE);
  const turns = groupTurns(body);
  let from = body.length;
  let tokens = 0;
  for (const turn of [...turns].reverse()) {
    const t = estimateTokens(body.slice(turn.start, turn.end));
    if (tokens + t > room || turn.start === 0) break;
    tokens += t;
    from = turn.start;
  }
  return body.slice(from);
}

/** `tail` without its oldest whole turn (empty when it holds one turn or none). */
export function withoutOldestTurn(tail: Message[]): Message[] {
  const turns = groupTurns(tail);
  const second = turns[1];
  return second ? tail.slice(second.start) : [];
}
