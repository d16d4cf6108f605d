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
  | { kind: "RunShell"; command: string }
  /**
   * `/rewind`: back to before prompt `to` (number `n` in the list, text `prompt`): the files the
   * agent wrote since (`code`), the conversation (`conversation`, the prompt then goes back into
   * the draft); `first`: it is the conversation's first message.
   */
  | { kind: "Rewind"; to: string; n: number; prompt: string; first: boolean; code: boolean; conversation: boolean };
