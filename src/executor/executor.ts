// The control plane: each user input is a submission, dispatched into input actions and run one
// submission at a time (submission-queue.ts) under its own AbortController, so an interrupt cancels
// exactly that work; `waitFor` resolves when all of a submission's work is done. This file only
// wires the parts: the live session (live-session.ts), the counters /cost and /status read
// (session-counters.ts), one submission's run (run-submission.ts) and its actions (action-handlers.ts).

import type { AgentEvent } from "../protocol/events.ts";
import { runAction } from "./action-handlers.ts";
import { commandContext } from "./command-context.ts";
import { COMMANDS } from "./command-registry.ts";
import type { Executor, ExecutorOptions } from "./executor-types.ts";
import { LiveSession } from "./live-session.ts";
import { RESUME_SCAN, lastContextTokens } from "./resumed-context.ts";
import { type SubmissionDeps, runSubmission } from "./run-submission.ts";
import { SessionCounters } from "./session-counters.ts";
import { sessionFacts } from "./session-facts.ts";
import { SubmissionQueue } from "./submission-queue.ts";

export type {
  Compaction,
  Executor,
  ExecutorEvent,
  ExecutorOptions,
  SubmissionOutcome,
  SubmissionStatus,
  SubmitInput,
} from "./executor-types.ts";

export async function createExecutor(opts: ExecutorOptions): Promise<Executor> {
  const counters = new SessionCounters(0);
  // Counts the agent's events for /cost and /status, then passes them on.
  const sink = (event: AgentEvent) => {
    counters.observe(event);
    opts.emit(event);
  };
  const session = await LiveSession.start(opts.open, sink, opts.resume);
  counters.contextTokens = lastContextTokens(session.runtime.recent(RESUME_SCAN));
  const facts = () => sessionFacts(session.runtime, counters, opts.config);
  const sources = { config: opts.config, session, commands: opts.commands ?? COMMANDS, facts };
  const scope = { session, counters, emit: opts.emit };
  const deps: SubmissionDeps = {
    emit: opts.emit,
    commandContext: (signal) => commandContext(sources, signal),
    runAction: (submission, action, outcome) => runAction(scope, submission, action, outcome),
  };
  const queue = new SubmissionQueue(
    (submission) => runSubmission(deps, submission),
    (outcome) => opts.emit({ type: "submission_end", outcome }),
  );

  return {
    get runtime() {
      return session.runtime;
    },
    submit: (input) => queue.submit(input),
    waitFor: (id) => queue.waitFor(id),
    interrupt: (id) => queue.interrupt(id),
    interruptAll: () => queue.interruptAll(),
    running: () => queue.running(),
    pending: () => queue.pending(),
    facts,
    async close() {
      if (await queue.close()) await session.runtime.close();
    },
    killNow() {
      session.runtime.killNow();
    },
  };
}
