// Submissions run one at a time, in the order they came, each under its own AbortController, so an
// interrupt cancels exactly that work. Nothing is kept for a finished submission but its outcome,
// and only for the last few (a waitFor that comes late).

import type { SubmissionOutcome, SubmitInput } from "./executor-types.ts";

export interface Submission extends SubmitInput {
  id: string;
  controller: AbortController;
}

interface Queued {
  submission: Submission;
  done: Promise<SubmissionOutcome>;
}

export const RECENT_OUTCOMES = 16;

export class SubmissionQueue {
  private readonly queued = new Map<string, Queued>();
  private readonly recent = new Map<string, SubmissionOutcome>();
  private tail: Promise<unknown> = Promise.resolve();
  private current: string | undefined;
  private counter = 0;
  private closed = false;

  /**
   * `execute` carries out one submission; `settled` hears its outcome once the queue has let go of
   * it (so a listener that asks `pending()` then gets the count without it).
   */
  constructor(
    private readonly execute: (submission: Submission) => Promise<SubmissionOutcome>,
    private readonly settled: (outcome: SubmissionOutcome) => void,
  ) {}

  submit(input: SubmitInput): string {
    if (this.closed) throw new Error("the executor is closed");
    const id = `s${++this.counter}`;
    const { text, images, shellMode, attachMentions } = input;
    const submission: Submission = { id, text, images, shellMode, attachMentions, controller: new AbortController() };
    // One at a time, in order: a chained promise, never a timer or a listener left behind.
    const done = this.tail.then(() => this.run(submission));
    this.tail = done.catch(() => undefined);
    this.queued.set(id, { submission, done });
    return id;
  }

  private async run(submission: Submission): Promise<SubmissionOutcome> {
    let outcome: SubmissionOutcome;
    this.current = submission.id;
    try {
      outcome = await this.execute(submission);
    } finally {
      this.current = undefined;
      this.queued.delete(submission.id);
    }
    this.remember(outcome);
    this.settled(outcome);
    return outcome;
  }

  private remember(outcome: SubmissionOutcome): void {
    this.recent.set(outcome.id, outcome);
    const oldest = this.recent.keys().next();
    if (this.recent.size > RECENT_OUTCOMES && !oldest.done) this.recent.delete(oldest.value);
  }

  async waitFor(id: string): Promise<SubmissionOutcome> {
    const queued = this.queued.get(id);
    const done = this.recent.get(id);
    if (!queued && done) return done;
    if (!queued) throw new Error(`unknown submission ${id} (only the last ${RECENT_OUTCOMES} outcomes are kept)`);
    return queued.done;
  }

  interrupt(id?: string): void {
    const target = id ?? this.current;
    if (target) this.queued.get(target)?.submission.controller.abort();
  }

  interruptAll(): void {
    for (const q of this.queued.values()) q.submission.controller.abort();
  }

  running(): string | undefined {
    return this.current;
  }

  pending(): number {
    return this.queued.size;
  }

  /** Takes no more, cancels everything held and waits for it; false when it was already closed. */
  async close(): Promise<boolean> {
    if (this.closed) return false;
    this.closed = true;
    this.interruptAll();
    await this.tail;
    return true;
  }
}
