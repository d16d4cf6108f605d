// Carrying out `/rewind`: files first (they are what the user sees change), then the conversation,
// whose record the session is reopened on, so that what the executor holds is what `-c` would
// read. The rewound prompt goes back into the draft (the interactive session reads `draft`).

import type { ActionScope } from "./action-scope.ts";
import type { SubmissionOutcome } from "./executor-types.ts";
import type { InputAction } from "./input-action.ts";
import { RESUME_SCAN, lastContextTokens } from "./resumed-context.ts";
import type { Submission } from "./submission-queue.ts";

// Kept apart so the session handle can use it without importing the executor's actions (no circle).
export { restoreLines } from "./restore-lines.ts";

type RewindAction = Extract<InputAction, { kind: "Rewind" }>;

export async function runRewind(
  scope: ActionScope,
  submission: Submission,
  action: RewindAction,
  outcome: SubmissionOutcome,
): Promise<void> {
  const lines: string[] = [];
  if (action.code) lines.push(...(await scope.session.runtime.restoreFiles(action.to)));
  if (action.conversation) {
    await scope.session.runtime.rewindConversation(action.to, action.first);
    await scope.session.reopen();
    scope.counters.reset(lastContextTokens(scope.session.runtime.recent(RESUME_SCAN)));
    const [first = ""] = action.prompt.split("\n");
    lines.push(`conversation rewound to before prompt ${action.n}: ${first.slice(0, 60)}`);
    outcome.draft = action.prompt;
  }
  scope.emit({ type: "command_output", id: submission.id, lines, is_error: false });
}
