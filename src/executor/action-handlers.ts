// How the executor carries out each input action of a submission. A new kind of action is a new
// member of `InputAction` and one case below (the switch is exhaustive: a missing case does not compile).

import { assertNever } from "../protocol/assert-never.ts";
import { EXIT, InterruptedError, SynapseError } from "../protocol/errors.ts";
import type { ContentBlock } from "../protocol/message.ts";
import type { ResumeTarget } from "../store/session.ts";
import type { ActionScope } from "./action-scope.ts";
import type { SubmissionOutcome } from "./executor-types.ts";
import type { InputAction } from "./input-action.ts";
import { RESUME_SCAN, lastContextTokens } from "./resumed-context.ts";
import { runRewind } from "./rewind-action.ts";
import type { Submission } from "./submission-queue.ts";
import { mentionedPaths } from "./user-shell.ts";

type Action<K extends InputAction["kind"]> = Extract<InputAction, { kind: K }>;

export async function runAction(
  scope: ActionScope,
  submission: Submission,
  action: InputAction,
  outcome: SubmissionOutcome,
): Promise<void> {
  switch (action.kind) {
    case "RunAgent":
      return runAgent(scope, submission, action, outcome);
    case "RunCompact":
      return runCompact(scope, submission, action, outcome);
    case "ChangeModel":
      scope.session.setModel(action.model);
      scope.emit({ type: "model_changed", model: scope.session.runtime.model });
      return;
    case "ResetSession":
      return switchSession(scope, undefined);
    case "ResumeSession":
      return switchSession(scope, { id: action.id });
    case "Rewind":
      return runRewind(scope, submission, action, outcome);
    case "RunShell": {
      const signal = submission.controller.signal;
      await scope.session.runtime.runShell(action.command, signal);
      if (signal.aborted) outcome.status = "interrupted";
      return;
    }
    default:
      return assertNever(action, "input action");
  }
}

async function runAgent(
  scope: ActionScope,
  submission: Submission,
  action: Action<"RunAgent">,
  outcome: SubmissionOutcome,
): Promise<void> {
  const { runtime } = scope.session;
  const signal = submission.controller.signal;
  const content: ContentBlock[] = [{ type: "text", text: action.text }];
  for (const path of action.images ?? []) content.push(await runtime.attachImage(path));
  for (const path of submission.attachMentions ? mentionedPaths(action.text) : []) {
    const file = await runtime.readMention(path, signal);
    if (signal.aborted) throw new InterruptedError();
    if (file) content.push({ type: "text", text: file });
  }
  const result = await runtime.submit(content, signal);
  outcome.result = result;
  if (result.subtype === "interrupted" || signal.aborted) outcome.status = "interrupted";
  else if (result.is_error) outcome.status = "failed";
}

async function runCompact(
  scope: ActionScope,
  submission: Submission,
  action: Action<"RunCompact">,
  outcome: SubmissionOutcome,
): Promise<void> {
  const signal = submission.controller.signal;
  const c = await scope.session.runtime.compact(action.focus, signal, action.keepLast);
  if (signal.aborted) throw new InterruptedError();
  // A condense that would not shrink the context changed nothing: not a success.
  if (c.failure) throw new SynapseError(`compact failed: ${c.failure}`, EXIT.failed);
  outcome.compaction = {
    tokensBefore: c.tokensBefore,
    tokensAfter: c.tokensAfter,
    method: c.method,
    keptTurns: c.keptTurns,
  };
  scope.counters.contextTokens = c.tokensAfter;
  scope.emit({ type: "compacted", id: submission.id, tokens_before: c.tokensBefore, tokens_after: c.tokensAfter });
}

/** /clear and /resume: the counters start again from the new session's context, the old one closes. */
async function switchSession(scope: ActionScope, resume: ResumeTarget | undefined): Promise<void> {
  const previous = await scope.session.switchTo(resume);
  const next = scope.session.runtime;
  scope.counters.reset(lastContextTokens(next.recent(RESUME_SCAN)));
  await previous.close();
  scope.emit({ type: "session_changed", session_id: next.sessionId, previous: previous.sessionId });
}
