// The command list shown while a `/name` is being typed: the commands whose name (or an alias)
// starts with what is typed, each with its one-line summary; ↑/↓ pick one, Tab takes it into the
// prompt, Enter runs it. Pure: the session keeps the picked row and draws the rows.

export interface MenuCommand {
  name: string;
  aliases?: string[];
  summary: string;
}

export const MENU_ROWS = 8;

/** The commands matching a draft that is a bare `/word` (nothing after it yet), else none. */
export function slashMenu(draft: string, commands: readonly MenuCommand[]): MenuCommand[] {
  const m = /^\/([\w?-]*)$/.exec(draft);
  if (!m) return [];
  const typed = (m?.[1] ?? "").toLowerCase();
  const hits = commands.filter((c) => [c.name, ...(c.aliases ?? [])].some((n) => n.startsWith(typed)));
  // A draft that is already exactly one command's name leaves nothing to choose.
  if (hits.length === 1 && hits[0]?.name === typed) return [];
  return hits;
}

/**
 * The menu's rows, the picked one marked, each cut to `width` by the caller: at most MENU_ROWS
 * commands, scrolled to keep the picked one in view, and a row saying how many are not shown
 * (every command is reachable with ↑/↓, not only the first rows).
 */
export function menuRows(items: readonly MenuCommand[], picked: number): string[] {
  const pad = Math.max(...items.map((c) => c.name.length)) + 2;
  const from = Math.max(0, Math.min(picked - MENU_ROWS + 1, items.length - MENU_ROWS));
  const shown = items.slice(from, from + MENU_ROWS);
  const rows = shown.map((c, i) => `${from + i === picked ? "❯" : " "} /${c.name.padEnd(pad)}${c.summary}`);
  const hidden = items.length - shown.length;
  if (hidden > 0) rows.push(`  … ${hidden} more (↑/↓)`);
  return rows;
}
