// Runs one tool call and always produces a tool result: unknown tools, bad input and failures
// become is_error results the model can read and recover from, never exceptions.

import { errorMessage } from "../protocol/errors.ts";
import type { ToolResultBlock, ToolUseBlock } from "../protocol/message.ts";
import type { ToolDisplay } from "../protocol/tool-display.ts";
import { checkPermission, screenOutput } from "../policy/gate.ts";
import { checkToolInput } from "../tools/input-schema.ts";
import { type Tool, ToolError, type ToolContext } from "../tools/types.ts";

export interface ToolCallOutcome {
  block: ToolResultBlock;
  /** One line for status rows and logs. */
  summary: string;
  /** Set when the permission policy refused the call (the result tells the model why). */
  denied?: { reason: string; allowWith?: string };
  /** The tool's facts for the interactive view (exit code, true line count, diff). */
  display?: ToolDisplay;
}

function failure(id: string, text: string): ToolCallOutcome {
  return {
    block: { type: "tool_result", tool_use_id: id, content: text, is_error: true },
    summary: text.split("\n")[0],
  };
}

export async function executeToolCall(
  call: ToolUseBlock,
  tools: ReadonlyMap<string, Tool>,
  ctx: ToolContext,
): Promise<ToolCallOutcome> {
  const tool = tools.get(call.name);
  if (!tool) {
    return failure(call.id, `Unknown tool "${call.name}". Available tools: ${[...tools.keys()].join(", ")}.`);
  }
  if (call.raw_input !== undefined) {
    return failure(call.id, `The tool input was not valid JSON: ${call.raw_input.slice(0, 200)}`);
  }
  const checked = checkToolInput(tool.input, call.input);
  if (!checked.ok) return failure(call.id, `Invalid input for ${tool.name}: ${checked.message}`);
  // The gate judges, and the tool runs with, the input as parsed (explicit nulls left out).
  const input = checked.value;

  const gate = await checkPermission(tool.name, input, ctx.cwd, ctx.services);
  if (!gate.ok)
    return { ...failure(call.id, gate.message), denied: { reason: gate.reason, allowWith: gate.allowWith } };
  const screen = (text: string) => screenOutput(tool.name, text, ctx.services);

  try {
    // Live output is shown and logged too: it gets the same screening as the result.
    const result = await tool.execute(
      input,
      ctx.services.permissions ? { ...ctx, progress: (text) => ctx.progress(screen(text)) } : ctx,
    );
    const content =
      typeof result.content === "string"
        ? screen(result.content)
        : result.content.map((b) => (b.type === "text" ? { ...b, text: screen(b.text) } : b));
    const block: ToolResultBlock = { type: "tool_result", tool_use_id: call.id, content: wellFormed(content) };
    if (result.isError) block.is_error = true;
    return { block, summary: summarize(content, result.display), display: result.display };
  } catch (err) {
    if (err instanceof ToolError) return failure(call.id, screen(err.message));
    if (ctx.signal.aborted) return failure(call.id, "Interrupted by the user.");
    return failure(call.id, screen(`${tool.name} failed: ${errorMessage(err)}`));
  }
}

/**
 * Tool output may hold half of a surrogate pair (a cut, a binary file); the Anthropic API rejects
 * such a body with a 400, and the session would carry it into every later request.
 */
function wellFormed(content: ToolResultBlock["content"]): ToolResultBlock["content"] {
  if (typeof content === "string") return content.toWellFormed();
  return content.map((b) => (b.type === "text" ? { ...b, text: b.text.toWellFormed() } : b));
}

/**
 * One line: the first line of the result and, for more, how many. A command's count is its whole
 * output's (the tool counted it as it streamed), not the cut copy's or the exit-code footer's.
 */
export function summarize(content: ToolResultBlock["content"], display?: ToolDisplay): string {
  const text =
    typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "[image]")).join(" ");
  const lines = text.split("\n").filter((l) => l.trim());
  const count = display?.kind === "command" ? display.lines : lines.length;
  if (count <= 1) return lines[0] ?? "(no output)";
  return `${lines[0]} … (${count} lines)`;
}
