// Tab completion in the prompt: `/co` → slash command names, `@src/ma` → paths under the working
// directory (hidden files and dependency folders left out unless asked for).

import { readdirSync } from "node:fs";
import { join } from "node:path";

export interface Completion {
  /** The span of the prompt the chosen candidate replaces. */
  from: number;
  to: number;
  candidates: string[];
}

const SKIP = new Set(["node_modules", ".git"]);
const MAX_CANDIDATES = 50;

export function complete(text: string, cursor: number, cwd: string, commandNames: readonly string[]): Completion | undefined {
  const before = text.slice(0, cursor);
  const command = /^\s*\/([\w-]*)$/.exec(before);
  if (command) {
    const prefix = command[1].toLowerCase();
    const candidates = commandNames.filter((n) => n.startsWith(prefix)).map((n) => `/${n} `);
    return { from: before.lastIndexOf("/"), to: cursor, candidates };
  }
  const at = /(^|\s)@([^\s@]*)$/.exec(before);
  if (at) {
    const partial = at[2];
    const slash = partial.lastIndexOf("/");
    const dirPart = slash >= 0 ? partial.slice(0, slash + 1) : "";
    const namePart = partial.slice(slash + 1);
    let entries: { name: string; dir: boolean }[] = [];
    try {
      entries = readdirSync(join(cwd, dirPart), { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() }));
    } catch {
      return { from: cursor - partial.length - 1, to: cursor, candidates: [] };
    }
    const candidates = entries
      .filter((e) => e.name.startsWith(namePart) && !SKIP.has(e.name) && (namePart.startsWith(".") || !e.name.startsWith(".")))
      .sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name))
      .slice(0, MAX_CANDIDATES)
      .map((e) => `@${dirPart}${e.name}${e.dir ? "/" : " "}`);
    return { from: cursor - partial.length - 1, to: cursor, candidates };
  }
  return undefined;
}

/** The longest start every candidate shares. */
export function commonPrefix(items: readonly string[]): string {
  if (!items.length) return "";
  let p = items[0];
  for (const s of items) while (!s.startsWith(p)) p = p.slice(0, -1);
  return p;
}
