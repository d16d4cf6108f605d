// What happens when a model turn stops at the output limit (max_tokens / "length"): the model is
// told in the results of the calls it was writing, so it writes smaller pieces next time, rather
// than reading only "not valid JSON"; the user is told on stderr. Pure.

import type { ContentBlock, ToolResultBlock, ToolUseBlock } from "../protocol/message.ts";

/** The stop reason both providers' turns carry when the output limit cut them (OpenAI's "length" is translated). */
export const OUTPUT_LIMIT_STOP = "max_tokens";

export function hitOutputLimit(stopReason: string | undefined): boolean {
  return stopReason === OUTPUT_LIMIT_STOP || stopReason === "length";
}

/** For the model, after the result of a call the limit cut. ASCII: it is sent with every later request. */
export function outputLimitNote(maxTokens: number): string {
  return (
    `[Your reply was cut off: it reached the output limit of ${maxTokens} tokens while writing this tool call, ` +
    "so its input is incomplete. Do it again in smaller pieces: e.g. write a long file with several Edit calls " +
    "or a short Write followed by Edits, and keep each tool call well under the limit.]"
  );
}

/** For the user (stderr), when a turn with tool calls was cut. */
export function outputLimitWarning(maxTokens: number): string {
  return (
    `the model's reply was cut at the output limit (${maxTokens} tokens, SYNAPSE_MAX_TOKENS); ` +
    "it was told to write smaller pieces"
  );
}

/** The result with `note` after its content (loop-detect.ts adds its warnings the same way). */
export function withNote(block: ToolResultBlock, note: string): ToolResultBlock {
  const content: ToolResultBlock["content"] =
    typeof block.content === "string"
      ? `${block.content}\n\n${note}`
      : [...block.content, { type: "text", text: note }];
  return { ...block, content };
}

/**
 * The results with the note added to each call the limit cut: those whose input did not parse (the
 * JSON ended early), or else the last call, which is where the stream stopped.
 */
export function noteCutCalls(
  calls: readonly ToolUseBlock[],
  results: ContentBlock[],
  note: string,
  isCut: (call: ToolUseBlock) => boolean,
): ContentBlock[] {
  const cut = new Set(calls.filter(isCut).map((c) => c.id));
  const last = calls.at(-1);
  if (!cut.size && last) cut.add(last.id);
  return results.map((b) => (b.type === "tool_result" && cut.has(b.tool_use_id) ? withNote(b, note) : b));
}
