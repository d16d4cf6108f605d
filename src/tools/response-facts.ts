// What Write and Edit tell PostToolUse hooks, in Claude Code's `tool_response` shapes (the shapes
// are in protocol/hook-events.ts): built from the texts the tools already hold and the view's diff.
// Pure.

import type { EditResponse, StructuredPatchHunk, WriteResponse } from "../protocol/hook-events.ts";
import type { ToolDisplay } from "../protocol/tool-display.ts";

/**
 * The view's line diff as `diff -u` hunks. A side with no lines in a hunk starts at 0 (only an
 * empty text has none: every other hunk keeps lines of context).
 */
export function structuredPatch(display: ToolDisplay | undefined): StructuredPatchHunk[] {
  if (display?.kind !== "diff") return [];
  return display.hunks.map(({ lines }) => {
    const olds = lines.filter((l) => l.op !== "+");
    const news = lines.filter((l) => l.op !== "-");
    return {
      oldStart: olds[0]?.old ?? 0,
      oldLines: olds.length,
      newStart: news[0]?.new ?? 0,
      newLines: news.length,
      lines: lines.map((l) => `${l.op}${l.text}`),
    };
  });
}

/** `old`: the text before, undefined when the file was new or could not be read back. */
export function writeResponse(
  path: string,
  content: string,
  created: boolean,
  old: string | undefined,
  display: ToolDisplay | undefined,
): WriteResponse {
  return {
    type: created ? "create" : "update",
    filePath: path,
    content,
    // Claude Code gives a new file no patch: the content says it all.
    structuredPatch: created ? [] : structuredPatch(display),
    originalFile: created ? null : (old ?? null),
  };
}

export function editResponse(
  path: string,
  input: { old_string: string; new_string: string; replace_all?: boolean },
  original: string | null,
  display: ToolDisplay | undefined,
): EditResponse {
  return {
    filePath: path,
    oldString: input.old_string,
    newString: input.new_string,
    originalFile: original,
    structuredPatch: structuredPatch(display),
    replaceAll: input.replace_all === true,
  };
}
