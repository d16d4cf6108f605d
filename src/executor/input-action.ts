// What a submission asks the executor to do. A slash command turns its text into these; plain text
// is one RunAgent. The executor is the only place that knows how to carry each one out.

export type InputAction =
  | { kind: "RunAgent"; text: string; images?: string[] }
  | { kind: "ChangeModel"; model: string }
  /** `keepLast`: keep exactly the last N whole turns (`/compact --keep-last N`). */
  | { kind: "RunCompact"; focus?: string; keepLast?: number }
  | { kind: "ResetSession" }
  /** `/resume <id>`: continue another session of this directory. */
  | { kind: "ResumeSession"; id: string }
  /** `!command` in the interactive session: the user's own shell command (user-shell.ts). */
  | { kind: "RunShell"; command: string };
