// One-line labels for tool activity, e.g. `Bash(npm test)` or `Read(src/app.ts)`: pure.

import { inertLine } from "./inert.ts";

const PRIMARY_FIELD: Record<string, string> = {
  Bash: "command",
  Read: "path",
  Write: "path",
  Edit: "path",
  Glob: "pattern",
  Grep: "pattern",
};

/** Longest tool name shown: an unknown tool's name is the model's to choose. */
const NAME_LIMIT = 40;

/**
 * One line of at most `limit` characters (code points), made inert: the text is model- or
 * tool-controlled, so escape sequences become visible instead of acting on the terminal.
 */
export function truncateOneLine(text: string, limit: number): string {
  const max = Math.max(1, Math.floor(limit));
  // Only the start is ever shown: a 20 kB one-line output must not cost a 20 kB pass or line.
  const bound = max * 4 + 64;
  const head = text.length > bound ? text.slice(0, bound) : text;
  const flat = inertLine(head.replace(/\s*\n\s*/g, " ⏎ "))
    .trim()
    .toWellFormed();
  const chars = Array.from(flat);
  if (chars.length <= max && head === text) return flat;
  return `${chars.slice(0, Math.max(1, Math.min(chars.length, max - 1))).join("")}…`;
}

export function toolLabel(name: string, input: unknown, limit: number): string {
  const field = PRIMARY_FIELD[name];
  const record = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  const value = field ? record[field] : undefined;
  // A string input is shown as it is (the text writer passes the raw text of unparseable JSON).
  const arg =
    typeof input === "string"
      ? input
      : typeof value === "string"
        ? value
        : Object.keys(record).length
          ? JSON.stringify(record)
          : "";
  return `${truncateOneLine(name, Math.min(NAME_LIMIT, limit))}(${truncateOneLine(arg, limit)})`;
}
