// Whether a key belongs to the draft being typed or to an approval prompt that just appeared: a
// prompt drawn in the middle of a typing burst must not take the next letters of a word ("a" is
// "yes, and don't ask again") as its answer. Keys keep going to the draft until a pause.

/** A pause this long after the last key into the draft ends the burst. */
export const TYPE_AHEAD_PAUSE_MS = 400;

export class TypeAhead {
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly pauseMs = TYPE_AHEAD_PAUSE_MS) {}

  /** A key went into the draft at `now`. */
  typed(now: number): void {
    this.last = now;
  }

  /** Whether a key arriving at `now` still belongs to the draft. */
  continues(now: number, draftEmpty: boolean): boolean {
    return !draftEmpty && now - this.last < this.pauseMs;
  }
}

/** How long a question is shown before Enter alone may answer it (see ApprovalPrompt.armEnter). */
export const FRESH_QUESTION_MS = 400;

/**
 * Where a key goes while a question waits: to the question, into the draft behind it (a key the
 * question has no use for), or to the session as usual (a typing burst, whose Enter sends its draft).
 */
export function routeKey(k: {
  stopKey: boolean;
  questionTakes: boolean;
  continuesDraft: boolean;
}): "question" | "draft" | "session" {
  if (k.stopKey) return "question";
  if (k.continuesDraft) return "session";
  return k.questionTakes ? "question" : "draft";
}
