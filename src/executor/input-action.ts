// What a submission asks the executor to do. A slash command turns its text into these; plain text
// is one RunAgent. The executor is the only place that knows how to carry each one out.

export type InputAction =
  | { kind: "RunAgent"; text: string; images?: string[] }
  | { kind: "ChangeModel"; model: string }
  | { kind: "RunCompact"; focus?: string }
  | { kind: "ResetSession" }
  /** `/resume <id>`: continue another session of this directory. */
  | { kind: "ResumeSession"; id: string };

/** Long actions run under the submission's AbortController; the others finish at once. */
export function isLongAction(action: InputAction): boolean {
  return action.kind === "RunAgent" || action.kind === "RunCompact";
}
