// `!command` in the interactive session (Claude Code's bash mode): the user's own command, run in
// the session's shell pool through the Bash tool, so it gets the same OS sandbox and permission
// gate as a command of the model's (a call the policy would ask about is asked about, not run).
// Its output joins the conversation as a user message the model reads with the next prompt.
// `@path` mentions in an interactive prompt go the same way through Read: the file's contents
// (bounded as Read bounds them, refused where Read would be) go with the prompt.

import type { EventSink } from "../protocol/events.ts";
import { type Message, newMessageId } from "../protocol/message.ts";
import { userShellText } from "../protocol/user-shell-text.ts";
import type { Tool, ToolContext } from "../tools/types.ts";

/** What the model is told about the user's command: what ran and what it printed. */
export function userShellMessage(command: string, output: string, failed: boolean): Message {
  const text = userShellText({ command, output, failed });
  return { id: newMessageId(), role: "user", content: [{ type: "text", text }], ts: Date.now() };
}

/** The text a `!` submission carries as a command, or undefined when it is not one. */
export function userShellCommand(text: string): string | undefined {
  const m = /^!([\s\S]*)$/.exec(text.trimStart());
  const command = m?.[1]?.trim();
  return command ? command : undefined;
}

export interface UserToolInput {
  tools: ReadonlyMap<string, Tool>;
  context: Omit<ToolContext, "progress">;
  emit: EventSink;
}

/**
 * One tool call the user asked for (not the model): through the permission gate and the tool as
 * a model's call would go, shown as a tool row. Its result's text and whether it failed.
 */
export async function runUserTool(
  name: string,
  toolInput: Record<string, unknown>,
  input: UserToolInput,
): Promise<{ text: string; failed: boolean }> {
  const { emit } = input;
  const id = `user-${newMessageId()}`;
  const call = { type: "tool_use" as const, id, name, input: toolInput };
  emit({ type: "tool_start", id, name, input: toolInput });
  // Loaded with the first call, as the agent's calls load it (agent/tool-batch.ts).
  const { executeToolCall } = await import("../agent/tool-call.ts");
  const outcome = await executeToolCall(call, input.tools, {
    ...input.context,
    progress: (chunk) => emit({ type: "tool_progress", id, name, text: chunk.toWellFormed() }),
  });
  const denied = outcome.denied;
  if (denied) emit({ type: "permission_denied", id, name, reason: denied.reason, allow_with: denied.allowWith });
  const display = outcome.display ? { display: outcome.display } : {};
  const failed = Boolean(outcome.block.is_error);
  emit({ type: "tool_end", id, name, is_error: failed, summary: outcome.summary, ...display });
  const content = outcome.block.content;
  const parts = typeof content === "string" ? [content] : content.map((b) => (b.type === "text" ? b.text : "[image]"));
  return { text: parts.join("\n"), failed };
}

export async function runUserShell(command: string, input: UserToolInput): Promise<Message> {
  const { text, failed } = await runUserTool("Bash", { command }, input);
  return userShellMessage(command, text, failed);
}

/** The files a prompt mentions (`@src/a.ts`, `@"my docs/b.md"`), each once, at most MAX_MENTIONS. */
export function mentionedPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const m of text.matchAll(/(?:^|\s)@(?:"([^"\n]+)"|([^\s"@]+))/g)) {
    const path = (m[1] ?? m[2] ?? "").replace(/[,.;:!?)]+$/, "");
    if (path) paths.add(path);
  }
  return [...paths].slice(0, MAX_MENTIONS);
}

export const MAX_MENTIONS = 10;

/** A mentioned file's contents as Read gave them, for the prompt. */
export function mentionBlock(path: string, text: string): string {
  return `<file path=${JSON.stringify(path)} mentioned="true">\n${text}\n</file>`;
}
