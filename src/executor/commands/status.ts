// `/status`: model, session, working directory, context used, memory, shells and tasks.

import { VERSION } from "../../protocol/version.ts";
import { describeSandbox } from "../../sandbox/types.ts";
import { type SlashCommand, say } from "../slash-command.ts";
import { costSummary } from "./cost.ts";

export function contextPercent(tokens: number, window: number): number {
  return window > 0 ? Math.min(100, Math.round((tokens / window) * 100)) : 0;
}

export const statusCommand: SlashCommand = {
  name: "status",
  summary: "version, model, session, cwd, context, memory, shells, tasks, permission mode, sandbox",
  async run(_args, ctx) {
    // Asked right after the session opened, /status waits for the sandbox probe's answer.
    const sandbox = (await ctx.sandbox?.()) ?? ctx.facts().sandbox;
    const f = ctx.facts();
    // A new session is kept from its first message: before that, an id would name nothing to resume.
    const session =
      f.sessionSaved === false ? "none saved yet (a new session is kept from its first message)" : f.sessionId;
    return say(
      `version:  synapse ${VERSION}`,
      `model:    ${f.model}`,
      `session:  ${session}`,
      `cwd:      ${f.cwd}`,
      `context:  ${f.contextTokens.toLocaleString("en-US")} of ${f.contextWindow.toLocaleString("en-US")} tokens ` +
        `(${contextPercent(f.contextTokens, f.contextWindow)}%), ${f.messagesInMemory} messages in memory`,
      `memory:   RSS ${f.memory.rssMb} MB (peak ${f.memory.peakRssMb} MB), heap peak ${f.memory.peakHeapMb} MB`,
      `shells:   ${f.shells.spawned} spawned, ${f.shells.reused} reused, ${f.shells.commandsRun} commands run`,
      `tasks:    ${f.tasksRunning} running`,
      `cost:     ${costSummary(f.usage, f.costUsd)}`,
      `mode:     ${f.permissionMode ?? "default"} (permission mode; Shift+Tab cycles it in the session)`,
      `sandbox:  ${sandbox ? describeSandbox(sandbox) : "being probed"}`,
    );
  },
};
