// What a slash command is given to read: the session's facts, the providers' model lists, this
// directory's sessions, the command list, the MCP servers. Commands never touch the session itself.

import type { Config } from "../config/config.ts";
import { listModels } from "../llm/model-list.ts";
import { listSessions } from "../store/sessions-list.ts";
import type { LiveSession } from "./live-session.ts";
import type { CommandContext, SessionFacts, SlashCommand } from "./slash-command.ts";

export interface CommandSources {
  config: Config;
  session: LiveSession;
  commands: readonly SlashCommand[];
  facts(): SessionFacts;
}

export function commandContext(sources: CommandSources, signal: AbortSignal): CommandContext {
  const { config, session } = sources;
  return {
    facts: sources.facts,
    listModels: (provider, s) => listModels(provider, provider === "anthropic" ? config.anthropic : config.openai, s),
    listSessions: async () => (await listSessions(config.home)).filter((s) => s.cwd === config.cwd),
    commands: () => sources.commands,
    mcpServers: () => session.runtime.mcpServers(signal),
    sandbox: () => session.runtime.sandbox(signal),
    rewindPoints: () => session.runtime.rewindPoints(),
    startModel: session.startModel,
    signal,
  };
}
