// One submission from its text to its outcome: `!command` or dispatch (plain text → RunAgent, a
// slash command → its lines and actions), then its actions in order until one does not end "done".
// Every failure becomes part of the outcome; only the executor's own bugs escape.

import { EXIT, InterruptedError, SynapseError, errorMessage } from "../protocol/errors.ts";
import { dispatch } from "./dispatch.ts";
import type { ExecutorEvent, SubmissionOutcome } from "./executor-types.ts";
import type { InputAction } from "./input-action.ts";
import type { CommandContext, CommandOutcome } from "./slash-command.ts";
import type { Submission } from "./submission-queue.ts";
import { userShellCommand } from "./user-shell.ts";

export interface SubmissionDeps {
  emit(event: ExecutorEvent): void;
  commandContext(signal: AbortSignal): CommandContext;
  runAction(submission: Submission, action: InputAction, outcome: SubmissionOutcome): Promise<void>;
}

export async function runSubmission(deps: SubmissionDeps, submission: Submission): Promise<SubmissionOutcome> {
  const { id, text } = submission;
  const outcome: SubmissionOutcome = { id, status: "done", exit: false };
  const signal = submission.controller.signal;
  deps.emit({ type: "submission_start", id, text });
  try {
    if (signal.aborted) throw new InterruptedError();
    const dispatched = await dispatchSubmission(deps, submission);
    if (dispatched.error) {
      outcome.status = "failed";
      outcome.error = dispatched.error;
      outcome.errorCode = EXIT.usage;
      deps.emit({ type: "command_output", id, lines: [dispatched.error], is_error: true });
    }
    outcome.exit = Boolean(dispatched.exit);
    for (const action of dispatched.actions) {
      if (signal.aborted) throw new InterruptedError();
      await deps.runAction(submission, action, outcome);
      if (outcome.status !== "done") break;
    }
  } catch (err) {
    if (signal.aborted || err instanceof InterruptedError) outcome.status = "interrupted";
    else {
      outcome.status = "failed";
      outcome.error = errorMessage(err);
      if (err instanceof SynapseError) outcome.errorCode = err.exitCode;
      deps.emit({ type: "command_output", id, lines: [outcome.error], is_error: true });
    }
  }
  return outcome;
}

/** The submission's actions, its command's lines shown first (with the list to pick from, if any). */
async function dispatchSubmission(deps: SubmissionDeps, submission: Submission): Promise<CommandOutcome> {
  const { id, text, shellMode, images } = submission;
  const shellCommand = shellMode ? userShellCommand(text) : undefined;
  const dispatched: CommandOutcome = shellCommand
    ? { lines: [], actions: [{ kind: "RunShell", command: shellCommand }] }
    : await dispatch(text, deps.commandContext(submission.controller.signal), images);
  if (dispatched.lines.length) {
    const output = { type: "command_output" as const, id, lines: dispatched.lines, is_error: false };
    deps.emit(dispatched.choices ? { ...output, choices: dispatched.choices } : output);
  }
  return dispatched;
}
