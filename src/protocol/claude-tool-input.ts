// Programs written for Claude Code (hooks, an Agent SDK program's canUseTool) read a file tool's
// path as `tool_input.file_path`; ours is `path`. They get both, and a rewrite that changed
// `file_path` is read back as `path`, so a formatter hook or a path-rewriting callback works
// unchanged.

/** The tools whose `path` Claude Code calls `file_path`. */
const FILE_PATH_TOOLS = new Set(["Read", "Write", "Edit"]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The input as such a program sees it: `file_path` beside `path`. */
export function claudeToolInput(tool: string, input: unknown): unknown {
  if (!FILE_PATH_TOOLS.has(tool) || !isRecord(input) || typeof input.path !== "string") return input;
  return { ...input, file_path: input.path };
}

/**
 * A program's rewrite of `original` in our names: a `file_path` that differs from the original
 * path is the new `path` (the program edited the name it knows); otherwise `path` stands.
 */
export function fromClaudeToolInput(
  tool: string,
  original: unknown,
  rewritten: Record<string, unknown>,
): Record<string, unknown> {
  if (!FILE_PATH_TOOLS.has(tool) || !("file_path" in rewritten)) return rewritten;
  const { file_path: filePath, ...rest } = rewritten;
  const before = isRecord(original) ? original.path : undefined;
  if (filePath !== before || !("path" in rest)) rest.path = filePath;
  return rest;
}
