// `/compact [--keep-last N] [focus]`: condense the conversation now; the focus text steers what the
// summary keeps, `--keep-last N` how many of the last whole turns stay as they are.

import { type SlashCommand, act, fail } from "../slash-command.ts";

const USAGE = "/compact [--keep-last N] [focus]";

export type CompactArgs = { focus?: string; keepLast?: number } | { error: string };

/**
 * Pure: leading `--` options, then the focus text. An unknown option is an error, never focus
 * text; `--` ends the options (`/compact -- --weird focus`).
 */
export function parseCompactArgs(args: string): CompactArgs {
  let rest = args.trim();
  let keepLast: number | undefined;
  while (rest.startsWith("--")) {
    const [word] = rest.split(/\s/, 1) as [string];
    rest = rest.slice(word.length).trimStart();
    if (word === "--") break;
    const eq = word.indexOf("=");
    const name = eq === -1 ? word : word.slice(0, eq);
    if (name !== "--keep-last") return { error: `/compact: unknown option ${word} (usage: ${USAGE})` };
    let value = eq === -1 ? undefined : word.slice(eq + 1);
    if (value === undefined) {
      [value = ""] = rest.split(/\s/, 1);
      rest = rest.slice(value.length).trimStart();
    }
    if (!/^\d+$/.test(value) || Number(value) > 10_000) {
      return { error: `/compact: --keep-last needs a whole number of turns, got "${value}" (usage: ${USAGE})` };
    }
    keepLast = Number(value);
  }
  return { ...(rest ? { focus: rest } : {}), ...(keepLast !== undefined ? { keepLast } : {}) };
}

export const compactCommand: SlashCommand = {
  name: "compact",
  usage: USAGE,
  summary: "condense the conversation now (the focus says what to keep; --keep-last N keeps the last N turns whole)",
  run(args) {
    const parsed = parseCompactArgs(args);
    if ("error" in parsed) return fail(parsed.error);
    return act({ kind: "RunCompact", ...parsed });
  },
};
