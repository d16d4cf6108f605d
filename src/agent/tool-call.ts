// Runs one tool call and always produces a tool result: unknown tools, bad input and failures
// become is_error results the model can read and recover from, never exceptions.

import { errorMessage } from "../protocol/errors.ts";
import type { ToolResultBlock, ToolUseBlock } from "../protocol/message.ts";
import type { ToolDisplay } from "../protocol/tool-display.ts";
import { checkPermission, judgeEdited, screenOutput } from "../policy/gate.ts";
import { checkToolInput } from "../tools/input-schema.ts";
import { loadedTool, type Tool, ToolError, type ToolContext } from "../tools/types.ts";
import { gateAfterHooks, hookToolResponse, type ToolHooks } from "../hooks/index.ts";
import { redactSecrets } from "../policy/secret-redaction.ts";
import type { ToolResponseFacts } from "../protocol/hook-events.ts";

export interface ToolCallOutcome {
  block: ToolResultBlock;
  /** One line for status rows and logs. */
  summary: string;
  /** Set when the permission policy refused the call (the result tells the model why). */
  denied?: { reason: string; allowWith?: string };
  /** The tool's facts for the interactive view (exit code, true line count, diff). */
  display?: ToolDisplay;
  /** A hook stopped the agent (`"continue": false`), with its reason for the user. */
  stopped?: string;
}

function failure(id: string, text: string): ToolCallOutcome {
  return {
    block: { type: "tool_result", tool_use_id: id, content: text, is_error: true },
    summary: text.split("\n")[0] ?? "",
  };
}

export async function executeToolCall(
  call: ToolUseBlock,
  tools: ReadonlyMap<string, Tool>,
  ctx: ToolContext,
  hooks?: ToolHooks,
): Promise<ToolCallOutcome> {
  const found = tools.get(call.name);
  if (!found) {
    return failure(call.id, `Unknown tool "${call.name}". Available tools: ${[...tools.keys()].join(", ")}.`);
  }
  if (call.raw_input !== undefined) {
    return failure(call.id, `The tool input was not valid JSON: ${call.raw_input.slice(0, 200)}`);
  }
  // A built-in tool's code, and the schema that checks its input, load on its first call.
  const tool = await loadedTool(found).catch((err: unknown) =>
    failure(call.id, `${found.name} failed: ${errorMessage(err)}`),
  );
  if ("block" in tool) return tool;
  const checked = checkToolInput(tool.input, call.input);
  if (!checked.ok) return failure(call.id, `Invalid input for ${tool.name}: ${checked.message}`);
  // The gate judges, and the tool runs with, the input as parsed (explicit nulls left out).
  let input = checked.value;

  let hooked = { id: call.id, name: tool.name, input };
  const pre = hooks ? await hooks.preToolUse(hooked, ctx.signal) : undefined;
  if (pre?.stop) return { ...failure(call.id, `Stopped by a PreToolUse hook: ${pre.stop}`), stopped: pre.stop };
  if (pre?.block) return failure(call.id, `Blocked by a PreToolUse hook: ${pre.block}`);
  // An interrupt killed the hooks, whose say is then unknown: the call must not run unheard.
  if (pre && ctx.signal.aborted) return failure(call.id, "Interrupted by the user.");
  if (pre?.updatedInput) {
    // A rewritten input is judged from the start, as if the model had sent it: schema, then the gate.
    const rewritten = checkToolInput(tool.input, pre.updatedInput);
    if (!rewritten.ok)
      return failure(
        call.id,
        `Invalid input for ${tool.name} (as rewritten by a PreToolUse hook): ${rewritten.message}`,
      );
    input = rewritten.value;
    hooked = { ...hooked, input };
  }
  // A hook may answer the question the policy would ask, or ask one of its own; a deny stays a deny.
  const after = pre ? await gateAfterHooks(pre, hooked, ctx.services) : { services: ctx.services };
  if ("refused" in after) return { ...failure(call.id, after.refused), denied: { reason: after.reason } };
  const gate = await checkPermission(tool.name, input, ctx.cwd, after.services);
  if (!gate.ok)
    return { ...failure(call.id, gate.message), denied: { reason: gate.reason, allowWith: gate.allowWith } };
  if (gate.edited !== undefined) {
    const again = checkEditedInput(call.id, tool, gate.edited, ctx);
    if (!again.ok) return again.outcome;
    input = again.input;
  }
  const screen = (text: string) => screenOutput(tool.name, text, ctx.services);
  const ran = await runTool(tool, call.id, input, { ...ctx, allowedByPolicy: gate.byPolicy === true }, screen);
  const { facts, ...outcome } = ran;
  // Every call that ran is heard, failed or not (`tool_response.is_error` says which); an
  // interrupted one is not: the user stopped the turn.
  if (!hooks || ctx.signal.aborted) return outcome;
  const secrets = ctx.services.permissions?.secrets ?? [];
  // Claude Code's `userModified`: an approver changed the Write or Edit before it ran.
  const changes = facts && (tool.name === "Write" || tool.name === "Edit");
  const known = changes ? { ...facts, userModified: gate.edited !== undefined } : facts;
  const response = hookToolResponse(known, modelCopy(outcome.block), {
    text: screen,
    redact: (text) => redactSecrets(text, secrets),
  });
  const post = await hooks.postToolUse({ ...hooked, input }, response, ctx.signal);
  if (post.context) outcome.block.content = withContext(outcome.block.content, screen(post.context));
  if (post.stop) outcome.stopped = post.stop;
  return outcome;
}

/** The tool run on its checked input: its result, or its failure as an is_error result. */
async function runTool(
  tool: Tool,
  id: string,
  input: Record<string, unknown>,
  ctx: ToolContext,
  screen: (text: string) => string,
): Promise<ToolCallOutcome & { facts?: ToolResponseFacts }> {
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
    const block: ToolResultBlock = { type: "tool_result", tool_use_id: id, content: wellFormed(content) };
    if (result.isError) block.is_error = true;
    const ran = { block, summary: summarize(content, result.display), display: result.display };
    return result.hookResponse ? { ...ran, facts: result.hookResponse } : ran;
  } catch (err) {
    if (err instanceof ToolError) return failure(id, screen(err.message));
    if (ctx.signal.aborted) return failure(id, "Interrupted by the user.");
    return failure(id, screen(`${tool.name} failed: ${errorMessage(err)}`));
  }
}

/** The model's copy of a result, as PostToolUse hooks get it next to the tool's own fields (`tool_response`). */
function modelCopy(block: ToolResultBlock): { content: string; is_error: boolean } {
  const { content } = block;
  const text = typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "[image]"));
  return { content: typeof text === "string" ? text : text.join("\n"), is_error: block.is_error === true };
}

/** PostToolUse hooks' text after the tool's own. */
function withContext(content: ToolResultBlock["content"], added: string): ToolResultBlock["content"] {
  const note = `PostToolUse hook: ${added.toWellFormed()}`;
  return typeof content === "string" ? `${content}\n\n${note}` : [...content, { type: "text", text: note }];
}

/** An approver's edited input (Agent SDK `updatedInput`): the tool's schema, then the policy's deny, again. */
function checkEditedInput(
  id: string,
  tool: Tool,
  edited: Record<string, unknown>,
  ctx: ToolContext,
): { ok: true; input: Record<string, unknown> } | { ok: false; outcome: ToolCallOutcome } {
  const checked = checkToolInput(tool.input, edited);
  if (!checked.ok)
    return { ok: false, outcome: failure(id, `Invalid input for ${tool.name} (as edited): ${checked.message}`) };
  const judged = judgeEdited(tool.name, checked.value, ctx.cwd, ctx.services);
  if (judged.ok) return { ok: true, input: checked.value };
  return { ok: false, outcome: { ...failure(id, judged.message), denied: { reason: judged.reason } } };
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
