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

export function complete(
  text: string,
  cursor: number,
  cwd: string,
  commandNames: readonly string[],
): Completion | undefined {
  const before = text.slice(0, cursor);
  const command = /^\s*\/([\w-]*)$/.exec(before);
  if (command) {
    const prefix = (command[1] ?? "").toLowerCase();
    const candidates = commandNames.filter((n) => n.startsWith(prefix)).map((n) => `/${n} `);
    return { from: before.lastIndexOf("/"), to: cursor, candidates };
  }
  // `@"dir with space/fi` continues a quoted mention; `@src/ma` a plain one.
  const at = /(^|\s)@(?:"([^"]*)|([^\s@"]*))$/.exec(before);
  if (at) {
    const quoted = at[2] !== undefined;
    const partial = at[2] ?? at[3] ?? "";
    const slash = partial.lastIndexOf("/");
    const dirPart = slash >= 0 ? partial.slice(0, slash + 1) : "";
    const namePart = partial.slice(slash + 1);
    const from = cursor - partial.length - (quoted ? 2 : 1);
    let entries: { name: string; dir: boolean }[] = [];
    try {
      entries = readdirSync(join(cwd, dirPart), { withFileTypes: true }).map((e) => ({
        name: e.name,
        dir: e.isDirectory(),
      }));
    } catch {
      return { from, to: cursor, candidates: [] };
    }
    const visible = entries.filter((e) => !SKIP.has(e.name) && (namePart.startsWith(".") || !e.name.startsWith(".")));
    // Names that start with what was typed; failing that, those holding its letters in order.
    let matched = visible.filter((e) => e.name.startsWith(namePart));
    const typed = namePart.toLowerCase();
    if (!matched.length && typed) matched = visible.filter((e) => subsequence(typed, e.name.toLowerCase()));
    const candidates = matched
      .sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name))
      .map((e) => mention(`${dirPart}${e.name}`, e.dir, quoted));
    return { from, to: cursor, candidates };
  }
  return undefined;
}

/**
 * A path as a mention: quoted when it holds a space (or the user started a quote), so the
 * name stays one mention; a folder stays open (no closing quote) to go on into it.
 */
function mention(path: string, dir: boolean, quoted: boolean): string {
  if (!quoted && !/\s|"/.test(path)) return `@${path}${dir ? "/" : " "}`;
  return `@"${path}${dir ? "/" : '" '}`;
}

function subsequence(needle: string, hay: string): boolean {
  let i = 0;
  for (const ch of hay) if (ch === needle[i]) i++;
  return i === needle.length;
}

/** The longest start every candidate shares. */
export function commonPrefix(items: readonly string[]): string {
  if (!items.length) return "";
  let p = items[0] ?? "";
  for (const s of items) while (!s.startsWith(p)) p = p.slice(0, -1);
  return p;
}
