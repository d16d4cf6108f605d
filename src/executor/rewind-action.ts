// Carrying out `/rewind`: files first (they are what the user sees change), then the conversation,
// whose record the session is reopened on, so that what the executor holds is what `-c` would
// read. The rewound prompt goes back into the draft (the interactive session reads `draft`).

import { relative, sep } from "node:path";
import type { RestoredFile } from "../store/checkpoints-restore.ts";
import type { ActionScope } from "./action-handlers.ts";
import type { SubmissionOutcome } from "./executor-types.ts";
import type { InputAction } from "./input-action.ts";
import { RESUME_SCAN, lastContextTokens } from "./resumed-context.ts";
import type { Submission } from "./submission-queue.ts";

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
    lines.push(`conversation rewound to before prompt ${action.n}; the prompt is back in the draft`);
    outcome.draft = action.prompt;
  }
  scope.emit({ type: "command_output", id: submission.id, lines, is_error: false });
}

/** What a code restore did, a line per file. Pure. */
export function restoreLines(done: RestoredFile[] | undefined, cwd: string): string[] {
  if (done === undefined) return ["no file checkpoints for that prompt: files left as they are"];
  if (done.length === 0) return ["no files to restore: the agent wrote none since (commands' changes are not tracked)"];
  const shown = (path: string) => {
    const rel = relative(cwd, path);
    return rel && !rel.startsWith(`..${sep}`) && rel !== ".." ? rel : path;
  };
  const lines = done.map((f) => {
    const what =
      f.status === "restored"
        ? "restored"
        : f.status === "removed"
          ? "removed (the agent created it)"
          : f.status === "unchanged"
            ? "already as it was"
            : `left alone: ${f.why}`;
    return `  ${shown(f.path)}: ${what}`;
  });
  const outside = done.filter((f) => f.changedOutside);
  if (outside.length > 0) {
    lines.push(
      `changed outside synapse since the agent's last write: ${outside.map((f) => shown(f.path)).join(", ")}` +
        " (their content then is kept in the session's checkpoints)",
    );
  }
  return ["files restored to before that prompt (commands' changes are not tracked):", ...lines];
}
