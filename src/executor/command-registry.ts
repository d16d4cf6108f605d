// Every slash command, for dispatch, /help and Tab completion. Adding a command is writing its
// file under commands/ and listing it here; the executor does not change.

import { clearCommand } from "./commands/clear.ts";
import { compactCommand } from "./commands/compact.ts";
import { costCommand } from "./commands/cost.ts";
import { exitCommand } from "./commands/exit.ts";
import { helpCommand } from "./commands/help.ts";
import { initCommand } from "./commands/init.ts";
import { mcpCommand } from "./commands/mcp.ts";
import { modelCommand } from "./commands/model.ts";
import { resumeCommand } from "./commands/resume.ts";
import { rewindCommand } from "./commands/rewind.ts";
import { statusCommand } from "./commands/status.ts";
import type { SlashCommand } from "./slash-command.ts";
import { itemAt } from "../text/checked-index.ts";

export const COMMANDS: readonly SlashCommand[] = [
  helpCommand,
  modelCommand,
  compactCommand,
  clearCommand,
  resumeCommand,
  rewindCommand,
  costCommand,
  statusCommand,
  mcpCommand,
  initCommand,
  exitCommand,
];

export function findCommand(name: string, commands: readonly SlashCommand[] = COMMANDS): SlashCommand | undefined {
  const n = name.toLowerCase();
  return commands.find((c) => c.name === n || c.aliases?.includes(n));
}

/** Every name a user may type (aliases too), for completion. */
export function commandNames(commands: readonly SlashCommand[] = COMMANDS): string[] {
  return commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]).filter((n) => /^[a-z]/.test(n));
}

/** Further than this from every name, a word is no typo of one: "did you mean" would only mislead. */
const TYPO_DISTANCE = 2;

/** The known name nearest to a mistyped one (edit distance), for "did you mean"; none when no name is near. */
export function closestCommand(name: string, commands: readonly SlashCommand[] = COMMANDS): string | undefined {
  let best = commands[0]?.name ?? "help";
  let bestDistance = Infinity;
  for (const candidate of commandNames(commands)) {
    const d = editDistance(name.toLowerCase(), candidate) - (candidate.startsWith(name.toLowerCase()) && name ? 1 : 0);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= TYPO_DISTANCE ? best : undefined;
}

export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const up = itemAt(prev, j) + 1;
      const left = itemAt(row, j - 1) + 1;
      row[j] = Math.min(up, left, itemAt(prev, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return itemAt(prev, b.length);
}
