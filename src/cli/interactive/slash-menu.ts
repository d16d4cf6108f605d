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
  return hits.slice(0, MENU_ROWS);
}

/** The menu's rows, the picked one marked, each cut to `width` by the caller. */
export function menuRows(items: readonly MenuCommand[], picked: number): string[] {
  const pad = Math.max(...items.map((c) => c.name.length)) + 2;
  return items.map((c, i) => `${i === picked ? "❯" : " "} /${c.name.padEnd(pad)}${c.summary}`);
}
