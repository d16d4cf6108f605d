// Turns a submission's text into a command outcome: plain text is one RunAgent; `/name args` runs
// that command. An unknown command is a usage error naming the nearest known one, decided before
// anything reaches a model.

import { isPromptCommand } from "../mcp/prompt-command.ts";
import { UsageError } from "../protocol/errors.ts";
import { COMMANDS, closestCommand, findCommand } from "./command-registry.ts";
import type { CommandContext, CommandOutcome, SlashCommand } from "./slash-command.ts";

export interface SlashInput {
  name: string;
  args: string;
}

/** `/name rest…` → its parts; undefined for text that is not a command (`/` alone, `/ x`, `//x`, `/path/to`). */
const commandList = (commands: readonly SlashCommand[]) => commands.map((c) => `/${c.name}`).join(", ");

export function parseSlash(text: string): SlashInput | undefined {
  const m = /^\/([A-Za-z?][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1] ?? "", args: (m[2] ?? "").trim() } : undefined;
}

/**
 * `/word …` is a command; a path such as `/etc/hosts what is this?` is a prompt, and so is
 * `/mcp__server__prompt …`, an MCP server's prompt that the session expands (mcp/prompt-command.ts).
 */
export function looksLikeCommand(text: string): boolean {
  return parseSlash(text) !== undefined && !isPromptCommand(text);
}

/** The command a text names, or a UsageError (unknown name) — checked before a session opens. */
export function resolveCommand(
  text: string,
  commands: readonly SlashCommand[] = COMMANDS,
): { command: SlashCommand; args: string } {
  const parsed = parseSlash(text);
  if (!parsed) {
    throw new UsageError(
      `not a command: ${JSON.stringify(text.trim().slice(0, 40))} (commands: ${commandList(commands)})`,
    );
  }
  const command = findCommand(parsed.name, commands);
  if (!command) {
    const near = closestCommand(parsed.name, commands);
    const hint = near === undefined ? "" : `; did you mean /${near}?`;
    throw new UsageError(`unknown command /${parsed.name}${hint} (commands: ${commandList(commands)})`);
  }
  return { command, args: parsed.args };
}

export async function dispatch(text: string, ctx: CommandContext, images?: string[]): Promise<CommandOutcome> {
  if (!looksLikeCommand(text))
    return { lines: [], actions: [{ kind: "RunAgent", text, ...(images?.length ? { images } : {}) }] };
  const { command, args } = resolveCommand(text, ctx.commands());
  return command.run(args, ctx);
}
