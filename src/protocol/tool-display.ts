// What a tool hands the interactive view besides its result for the model: structured facts the
// view draws (a command's exit code and true line count, a change as a line diff), so the view
// never parses result text or reads files itself.

export interface DiffLine {
  /** " " context, "-" removed, "+" added. */
  op: " " | "-" | "+";
  text: string;
  /** Line number in the old text (context and removed lines). */
  old?: number;
  /** Line number in the new text (context and added lines). */
  new?: number;
}

export interface DiffHunk {
  lines: DiffLine[];
}

export interface LineDiff {
  hunks: DiffHunk[];
  added: number;
  removed: number;
}

export type ToolDisplay =
  /** `lines`: the command's whole output, counted as it streamed (before any cut for the model). */
  | { kind: "command"; exit_code: number | null; lines: number }
  | ({ kind: "diff"; path: string; created: boolean } & LineDiff);
