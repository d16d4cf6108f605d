// `/help`: every command with its one-line summary, then the MCP servers' prompts.

import { type SlashCommand, say } from "../slash-command.ts";

export const helpCommand: SlashCommand = {
  name: "help",
  aliases: ["?"],
  summary: "list the commands",
  async run(_args, ctx) {
    const rows = ctx.commands().map((c) => {
      const head = c.usage ?? `/${c.name}`;
      const aka = c.aliases?.length ? ` (also ${c.aliases.map((a) => `/${a}`).join(", ")})` : "";
      return `  ${head.padEnd(18)} ${c.summary}${aka}`;
    });
    // After the servers' start (as /mcp): a prompt is a command only once its server is connected.
    const prompts = ((await ctx.mcpServers?.()) ?? []).flatMap((r) => r.prompts);
    const promptRows = prompts.length ? ["MCP prompts (/name args…, sent to the model as the server's text):"] : [];
    for (const p of prompts) promptRows.push(`  /${p}`);
    return say(
      "Commands:",
      ...rows,
      ...promptRows,
      "Any other text is sent to the model; an unknown /name is refused (a path such as /etc/hosts is text).",
    );
  },
};
