// MCP prompts as slash commands, as in Claude Code: `/mcp__<server>__<prompt> args…` is replaced,
// before the request, by the messages the server's prompt returns. Pure: the parsing, the
// arguments (given in order, the last taking the rest) and the rendering of the messages.

import { MCP_PREFIX } from "./tool-names.ts";
import { itemAt } from "../text/checked-index.ts";

export interface PromptArgument {
  name: string;
  required?: boolean;
}

/** A prompt as the server lists it. */
export interface ServerPrompt {
  name: string;
  description?: string;
  arguments?: PromptArgument[];
}

const COMMAND = /^\/(mcp__[A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/;

export function isPromptCommand(text: string): boolean {
  return text.trim().startsWith(`/${MCP_PREFIX}`);
}

export function parsePromptCommand(text: string): { name: string; args: string } | undefined {
  const m = COMMAND.exec(text.trim());
  return m ? { name: itemAt(m, 1), args: (m[2] ?? "").trim() } : undefined;
}

/** Words in order to the declared arguments; the last one gets the rest of the line. */
type ArgumentCheck = { ok: true; values: Record<string, string> } | { ok: false; error: string };

export function promptArguments(declared: readonly PromptArgument[], args: string): ArgumentCheck {
  const words = args ? args.split(/\s+/) : [];
  const values: Record<string, string> = {};
  declared.forEach((arg, i) => {
    const value = i === declared.length - 1 ? words.slice(i).join(" ") : words[i];
    if (value) values[arg.name] = value;
  });
  const missing = declared.filter((a) => a.required && !values[a.name]).map((a) => a.name);
  if (missing.length) {
    return { ok: false, error: `missing argument${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}` };
  }
  if (!declared.length && words.length) return { ok: false, error: "this prompt takes no arguments" };
  return { ok: true, values };
}

/** The prompt's messages as one text: each message's text, an assistant's marked as such. */
export function promptText(messages: ReadonlyArray<{ role?: unknown; content?: unknown }>): string {
  return messages
    .map((m) => {
      const c = (m.content ?? {}) as { type?: unknown; text?: unknown; resource?: { uri?: unknown; text?: unknown } };
      const text =
        c.type === "text"
          ? String(c.text ?? "")
          : c.type === "resource"
            ? `Resource ${String(c.resource?.uri ?? "")}:\n${String(c.resource?.text ?? "")}`
            : `[${String(c.type)} content: not shown]`;
      return m.role === "assistant" ? `(assistant) ${text}` : text;
    })
    .join("\n\n");
}
