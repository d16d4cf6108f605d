// `/rewind` (alias `/checkpoint`): go back to before an earlier prompt, as Claude Code's
// checkpoints and opencode's `/undo` do. Without arguments it lists the prompts (a picker in the
// interactive session); `/rewind <n> ?` offers what to restore; `/rewind <n> [all|conversation|code]`
// does it. Only the agent's Write and Edit are undone: what commands changed is out of reach.

import { type SlashCommand, act, fail, say } from "../slash-command.ts";
import type { RewindPoint } from "../session-rewind.ts";

const USAGE = "/rewind [n [all|conversation|code]]";
export const NOT_COMMANDS = "changes made by commands (Bash) are not tracked; only Write and Edit are undone";
const MODES = {
  all: "restore code and conversation",
  conversation: "restore conversation only",
  code: "restore code only",
} as const;
type Mode = keyof typeof MODES;

/** One line: the prompt's first line, cut, and how many files the agent wrote since. */
export function pointLabel(point: RewindPoint, width = 60): string {
  const line = point.text.replace(/\s+/g, " ").trim();
  const text = line.length > width ? `${line.slice(0, width - 1)}…` : line;
  const files =
    point.files === 0 ? "no files changed since" : `${point.files} file${point.files === 1 ? "" : "s"} changed since`;
  return `${point.n}. ${text || "(no text)"}  (${files})`;
}

export type RewindArgs = { list: true } | { n: number; mode: Mode | "?" } | { error: string };

/** Pure: `""`, `"<n>"`, `"<n> ?"` or `"<n> <mode>"`. */
export function parseRewindArgs(args: string): RewindArgs {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { list: true };
  const [first, second, ...rest] = words as [string, string | undefined, ...string[]];
  if (!/^\d+$/.test(first) || Number(first) < 1)
    return { error: `/rewind: "${first}" is not a prompt number (usage: ${USAGE})` };
  if (rest.length > 0) return { error: `/rewind: too many arguments (usage: ${USAGE})` };
  const mode = second ?? "all";
  if (mode !== "?" && !(mode in MODES)) return { error: `/rewind: unknown choice "${mode}" (usage: ${USAGE})` };
  return { n: Number(first), mode: mode as Mode | "?" };
}

export const rewindCommand: SlashCommand = {
  name: "rewind",
  aliases: ["checkpoint"],
  usage: USAGE,
  summary: "go back to before an earlier prompt: its code, its conversation, or both",
  async run(args, ctx) {
    const parsed = parseRewindArgs(args);
    if ("error" in parsed) return fail(parsed.error);
    const points = (await ctx.rewindPoints?.()) ?? [];
    if ("list" in parsed) {
      // A session from before checkpoints existed has prompts, none of them listed.
      if (points.length === 0)
        return say("no prompts to rewind to in this session (only prompts with file checkpoints are listed)");
      const items = points.map((p) => ({ value: `${p.n} ?`, label: pointLabel(p) }));
      const title = `Rewind to before a prompt (${NOT_COMMANDS})`;
      const lines = [`${title}; /rewind <n> [all|conversation|code]:`, ...points.map((p) => `  ${pointLabel(p)}`)];
      // The pick starts on the newest prompt, as Claude Code's does: the one most often undone.
      const start = items.at(-1)?.value;
      return { ...say(...lines), choices: { command: "rewind", title, items, start } };
    }
    const point = points.find((p) => p.n === parsed.n);
    if (!point) {
      const there = points.length === 1 ? "is 1" : `are ${points.length}`;
      return fail(`/rewind: no prompt ${parsed.n} (there ${there}; /rewind lists them)`);
    }
    if (parsed.mode === "?") {
      const items = (Object.keys(MODES) as Mode[]).map((mode) => ({ value: `${point.n} ${mode}`, label: MODES[mode] }));
      const title = `Rewind to before: ${pointLabel(point)}`;
      return {
        ...say(title, ...items.map((i) => `  /rewind ${i.value}: ${i.label}`)),
        choices: { command: "rewind", title, items },
      };
    }
    return act({
      kind: "Rewind",
      to: point.id,
      n: point.n,
      prompt: point.text,
      first: point.first,
      code: parsed.mode !== "conversation",
      conversation: parsed.mode !== "code",
    });
  },
};
