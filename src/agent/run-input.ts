// What a run is given and what it gives back: the contract of agent/runner.ts, apart so that the turn's
// helpers (turn-io.ts) and the runner can both name it without importing each other.

import type { Config } from "../config/config.ts";
import type { ContextManager } from "../context/condense.ts";
import type { RunHooks } from "../hooks/index.ts";
import type { Provider } from "../llm/types.ts";
import type { EventSink, ResultSubtype } from "../protocol/events.ts";
import type { ContentBlock, Usage } from "../protocol/message.ts";
import type { SessionStore } from "../store/types.ts";
import type { Tool, ToolServices } from "../tools/types.ts";
import type { AnswerJudge } from "./structured-output.ts";
import type { TaskLauncher } from "./sub-agents.ts";

export interface RunInput {
  config: Config;
  provider: Provider;
  store: SessionStore;
  tools: ReadonlyMap<string, Tool>;
  services: ToolServices;
  systemPrompt: string;
  prompt: ContentBlock[];
  /** Keeps the context within the model's window; the runtime's, so /compact and the memory monitor share it. */
  context?: ContextManager;
  taskId: string;
  signal: AbortSignal;
  emit: EventSink;
  /** Runs `task:*` calls as sub-agents; absent inside a sub-agent (no nesting). */
  tasks?: TaskLauncher;
  /** Brings `tools` up to date before each request (MCP servers' changed lists); true when it changed them. */
  refreshTools?(): Promise<boolean>;
  /** The session's hooks (src/hooks): UserPromptSubmit, Stop and the tool events. */
  hooks?: RunHooks;
  /** Awaited before a turn's tool calls run (the session's sandbox probe: a request does not need it). */
  beforeTools?(): Promise<void>;
  /** Each request of the run has been handed to the provider (the session's deferred start-up work). */
  onRequestSent?(): void;
  /** Structured output (--json-schema): judges each final answer; an invalid one is sent back. */
  answerJudge?: AnswerJudge;
}

export interface RunOutput {
  subtype: ResultSubtype;
  result: string;
  numTurns: number;
  usage: Usage;
  /** The last turn's stop reason, when the run ended on a model turn. */
  stopReason?: string;
  /** The final answer's JSON value, when `answerJudge` found it valid. */
  structuredOutput?: unknown;
  /** Why the run ended, where its subtype does not say (Claude Code's `terminal_reason`). */
  terminalReason?: "hook_stopped";
}
