// `/mcp`: each MCP server of the session, its state (connected, failed with its error, needs
// approval) and its tools and prompts.

import type { ServerReport } from "../../mcp/servers.ts";
import { type SlashCommand, fail, say } from "../slash-command.ts";

function state(r: ServerReport): string {
  switch (r.status) {
    case "connected":
      return "connected";
    case "pending":
      return "starting";
    case "needs-approval":
      return "needs approval (not started; approve at the next prompt, or run with --allow-project-mcp)";
    default:
      return `failed: ${r.error ?? "unknown error"}`;
  }
}

/** The lines `/mcp` shows for these servers (pure, for tests). */
export function describeServers(reports: readonly ServerReport[]): string[] {
  if (!reports.length) return ["No MCP servers configured (.mcp.json, --mcp-config, or `synapse mcp add`)."];
  const lines = ["MCP servers:"];
  for (const r of reports) {
    lines.push(`  ${r.name} (${r.scope}): ${state(r)}`);
    if (r.status !== "connected") continue;
    const n = r.tools.length;
    lines.push(`    ${n} tool${n === 1 ? "" : "s"}${n ? `: ${r.tools.join(", ")}` : ""}`);
    if (r.prompts.length) lines.push(`    prompts: ${r.prompts.map((p) => `/${p}`).join(", ")}`);
  }
  return lines;
}

export const mcpCommand: SlashCommand = {
  name: "mcp",
  summary: "the MCP servers: state, tools and prompts",
  async run(args, ctx) {
    if (args.trim()) return fail("/mcp takes no arguments");
    return say(...describeServers(ctx.mcpServers ? await ctx.mcpServers() : []));
  },
};
