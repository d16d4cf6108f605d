// `!command` in the interactive session (Claude Code's bash mode): the user's own command, run in
// the session's shell pool through the Bash tool, so it gets the same OS sandbox and permission
// gate as a command of the model's (a call the policy would ask about is asked about, not run).
// Its output joins the conversation as a user message the model reads with the next prompt.

import { executeToolCall } from "../agent/tool-call.ts";
import type { EventSink } from "../protocol/events.ts";
import { type Message, newMessageId } from "../protocol/message.ts";
import type { Tool, ToolContext } from "../tools/types.ts";

/** What the model is told about the user's command: what ran and what it printed. */
export function userShellMessage(command: string, output: string, failed: boolean): Message {
  const text = [
    `The user ran a shell command themselves (not a request to act on it):`,
    `<bash-input>${command}</bash-input>`,
    `<bash-output${failed ? ' failed="true"' : ""}>${output}</bash-output>`,
  ].join("\n");
  return { id: newMessageId(), role: "user", content: [{ type: "text", text }], ts: Date.now() };
}

/** The text a `!` submission carries as a command, or undefined when it is not one. */
export function userShellCommand(text: string): string | undefined {
  const m = /^!([^]*)$/.exec(text.trimStart());
  const command = m?.[1]?.trim();
  return command ? command : undefined;
}

export async function runUserShell(input: {
  command: string;
  tools: ReadonlyMap<string, Tool>;
  context: Omit<ToolContext, "progress">;
  emit: EventSink;
}): Promise<Message> {
  const { command, emit } = input;
  const id = `user-shell-${newMessageId()}`;
  const call = { type: "tool_use" as const, id, name: "Bash", input: { command } };
  emit({ type: "tool_start", id, name: "Bash", input: call.input });
  const outcome = await executeToolCall(call, input.tools, {
    ...input.context,
    progress: (chunk) => emit({ type: "tool_progress", id, name: "Bash", text: chunk.toWellFormed() }),
  });
  if (outcome.denied) emit({ type: "permission_denied", id, name: "Bash", reason: outcome.denied.reason, allow_with: outcome.denied.allowWith });
  const display = outcome.display ? { display: outcome.display } : {};
  const failed = Boolean(outcome.block.is_error);
  emit({ type: "tool_end", id, name: "Bash", is_error: failed, summary: outcome.summary, ...display });
  const content = outcome.block.content;
  const output = typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "[image]")).join("\n");
  return userShellMessage(command, output, failed);
}
