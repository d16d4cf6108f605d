// How an editor sees one of Synapse's tool calls: its ACP kind (the icon and grouping the editor
// picks), a one-line title, and the files it touches (so "follow the agent" can open them). Pure.

import { isAbsolute, resolve } from "node:path";
import type { ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

const TITLE_LIMIT = 160;

const KINDS: Record<string, ToolKind> = {
  Read: "read",
  Write: "edit",
  Edit: "edit",
  Bash: "execute",
  Glob: "search",
  Grep: "search",
};

const field = (input: unknown, key: string): string | undefined => {
  const value = (input as Record<string, unknown> | null)?.[key];
  return typeof value === "string" ? value : undefined;
};

const isTask = (name: string, input: unknown) => name === "Bash" && /^\s*task:/.test(field(input, "command") ?? "");

export function toolKind(name: string, input: unknown): ToolKind {
  // A sub-agent is started through Bash, but it thinks rather than executes.
  if (isTask(name, input)) return "think";
  return KINDS[name] ?? "other";
}

/** One line, cut: a multi-line command shows its first line. */
function oneLine(text: string): string {
  const first = (text.split("\n", 1)[0] ?? "").trim();
  const cut = first.length > TITLE_LIMIT ? `${first.slice(0, TITLE_LIMIT - 1)}…` : first;
  return text.includes("\n") && cut === first ? `${cut} …` : cut;
}

export function toolTitle(name: string, input: unknown): string {
  const path = field(input, "path");
  switch (name) {
    case "Read":
    case "Write":
    case "Edit":
      return path ? `${name} ${path}` : name;
    case "Bash":
      return oneLine(field(input, "command") ?? "Bash");
    case "Glob":
    case "Grep": {
      const pattern = field(input, "pattern");
      return oneLine(`${name} ${pattern !== undefined ? JSON.stringify(pattern) : ""}${path ? ` in ${path}` : ""}`);
    }
    default:
      return name;
  }
}

/** Absolute paths the call reads or changes; a Read's starting line when it has one. */
export function toolLocations(name: string, input: unknown, cwd: string): ToolCallLocation[] {
  const path = field(input, "path");
  if (!path || !["Read", "Write", "Edit", "Glob", "Grep"].includes(name)) return [];
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const offset = (input as { offset?: unknown }).offset;
  return [
    name === "Read" && typeof offset === "number" && offset > 0 ? { path: absolute, line: offset } : { path: absolute },
  ];
}
