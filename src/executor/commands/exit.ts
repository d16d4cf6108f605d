// `/exit` and `/quit`: end the session (it is saved; its id is printed with how to resume it).

import type { SlashCommand } from "../slash-command.ts";

export const exitCommand: SlashCommand = {
  name: "exit",
  aliases: ["quit"],
  summary: "end the session",
  run: () => ({ lines: [], actions: [], exit: true }),
};
