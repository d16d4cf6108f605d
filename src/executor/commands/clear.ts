// `/clear`: start a new session with an empty conversation; the old one stays on disk.

import { type SlashCommand, act } from "../slash-command.ts";

export const clearCommand: SlashCommand = {
  name: "clear",
  aliases: ["new"],
  summary: "start a new, empty session (the old one stays on disk)",
  run: () => act({ kind: "ResetSession" }),
};
