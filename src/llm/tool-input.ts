// Parses the JSON arguments a model streamed for a tool call. Models sometimes send broken JSON;
// that must reach the agent as data (so it can answer with an is_error tool result), not as a throw.

import type { ToolUseBlock } from "../protocol/message.ts";

/** The input fields of a tool_use block: an object, or `{}` and the raw text when it was not one. */
export type ToolInputFields = Pick<ToolUseBlock, "input" | "raw_input">;

export function parseToolInput(raw: string): ToolInputFields {
  // Anthropic sends "" for a tool with no parameters; some OpenAI-compatible servers do too.
  if (raw.trim() === "") return { input: {} };
  try {
    const value = JSON.parse(raw);
    if (value && typeof value === "object" && !Array.isArray(value)) return { input: value };
  } catch {
    // Fall through: the raw text is kept for the error message the agent sends back.
  }
  return { input: {}, raw_input: raw };
}
