// `/help`: every command with its one-line summary.

import { type SlashCommand, say } from "../slash-command.ts";

export const helpCommand: SlashCommand = {
  name: "help",
  aliases: ["?"],
  summary: "list the commands",
  run(_args, ctx) {
    const rows = ctx.commands().map((c) => {
      const head = c.usage ?? `/${c.name}`;
      const aka = c.aliases?.length ? ` (also ${c.aliases.map((a) => `/${a}`).join(", ")})` : "";
      return `  ${head.padEnd(18)} ${c.summary}${aka}`;
    });
    return say(
      "Commands:",
      ...rows,
      "Any other text is sent to the model; an unknown /name is refused (a path such as /etc/hosts is text).",
    );
  },
};
