// The shape of one slash command. A command only reads what it is given and answers with lines to
// show and actions to run; it never touches the session itself, so it can be tested alone.

import type { ModelList } from "../llm/model-list.ts";
import type { Usage } from "../protocol/message.ts";
import type { ListedSession } from "../store/types.ts";
import type { SandboxState } from "../sandbox/types.ts";
import type { PermissionMode } from "../config/config.ts";
import type { InputAction } from "./input-action.ts";
import type { RewindPoint } from "./session-rewind.ts";
import type { ServerReport } from "../mcp/servers.ts";

export interface CommandOutcome {
  /** Text for the user (stdout headless, the transcript in the session). */
  lines: string[];
  actions: InputAction[];
  /** Set by a command that failed (bad argument): shown as an error, headless exit 1. */
  error?: string;
  /** `/exit`: end the session after this submission. */
  exit?: boolean;
  /** A list to choose from (`/model`, `/resume`): the interactive session opens a picker instead of the lines. */
  choices?: Choices;
}

/** What a picker offers: choosing `value` submits `/<command> <value>`. */
export interface Choices {
  command: string;
  title: string;
  items: { value: string; label: string; current?: boolean }[];
  /** The value the pick starts on when no item is current (`/rewind`: the newest prompt). */
  start?: string;
}

export interface SessionFacts {
  /** `provider/model` of the next request. */
  model: string;
  sessionId: string;
  /** false: a new session not saved yet (it is kept from its first message), so nothing can resume it. */
  sessionSaved?: boolean;
  cwd: string;
  /** Tokens in and out over this session's submissions so far (cache reads and writes among the input). */
  usage: Usage;
  /** Dollars those cost; absent when a run's model had no price (SYNAPSE_PRICE sets one). */
  costUsd?: number;
  /** Tokens the last request carried, and the model's window (for "context used"). */
  contextTokens: number;
  contextWindow: number;
  messagesInMemory: number;
  shells: { spawned: number; reused: number; commandsRun: number };
  memory: { peakRssMb: number; peakHeapMb: number; rssMb: number };
  tasksRunning: number;
  /** Where commands run: the OS sandbox, or none and why; undefined while it is being probed. */
  sandbox: SandboxState | undefined;
  /** The mode the next tool call is judged in (Shift+Tab changes it in the interactive session). */
  permissionMode?: PermissionMode;
}

export interface CommandContext {
  facts(): SessionFacts;
  listModels(provider: "anthropic" | "openai", signal: AbortSignal): Promise<ModelList>;
  /** Sessions of this working directory, newest first. */
  listSessions(): Promise<ListedSession[]>;
  commands(): readonly SlashCommand[];
  /** The session's MCP servers, once those that start unasked have connected or failed (absent: none). */
  mcpServers?(): Promise<ServerReport[]>;
  /** Where commands run, once the sandbox probe has answered (undefined if the command was interrupted first). */
  sandbox?(): Promise<SandboxState | undefined>;
  /** The prompts `/rewind` can go back to, oldest first (absent: none). */
  rewindPoints?(): Promise<RewindPoint[]>;
  /** `provider/model` the session started on: /model can switch back to it though no list names it. */
  startModel?: string;
  signal: AbortSignal;
}

export interface SlashCommand {
  name: string;
  aliases?: string[];
  /** `/name <args>` as shown by /help. */
  usage?: string;
  summary: string;
  run(args: string, ctx: CommandContext): CommandOutcome | Promise<CommandOutcome>;
}

export const say = (...lines: string[]): CommandOutcome => ({ lines, actions: [] });
export const act = (...actions: InputAction[]): CommandOutcome => ({ lines: [], actions });
export const fail = (error: string): CommandOutcome => ({ lines: [], actions: [], error });
