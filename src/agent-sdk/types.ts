// What the command line tells a run driven by the Agent SDK (cli/sdk-flags.ts fills it), and what
// the control requests see of the session (sdk-session.ts implements it).

import type { Config } from "../config/config.ts";
import type { Executor } from "../executor/executor.ts";
import type { InitializeRequest } from "./sdk-lines.ts";
import type { SdkMcpServers } from "./sdk-mcp.ts";

export interface SdkSessionFlags {
  /** `--permission-prompt-tool stdio`: permission questions go to the program as can_use_tool. */
  promptTool: boolean;
  /** set_permission_mode may switch to bypass (`--allow-dangerously-skip-permissions`). */
  allowBypass: boolean;
  /** `--permission-mode dontAsk`: a question the policy would ask is refused, nobody asked. */
  dontAsk: boolean;
  /** `--include-partial-messages`. */
  includePartialMessages: boolean;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** `--session-id`: the first session's id (a UUID). */
  sessionId?: string;
  /** `--fork-session`: the resumed session goes on in a copy. */
  forkSession: boolean;
}

/** What the control requests read and change (control-requests.ts). */
export interface SessionControl {
  readonly config: Config;
  readonly flags: SdkSessionFlags;
  readonly version: string;
  /** The executor, opened on first need (after initialize, when one came first). */
  executor(): Promise<Executor>;
  /** initialize's settings; the executor opens with them. */
  initialize(request: InitializeRequest): void;
  /** Ends the running turn (and any permission question it waits on). */
  interrupt(): void;
  /** set_permission_mode and a permission update's setMode: the note when refused. */
  setMode(mode: string): string | undefined;
  readonly dontAsk: boolean;
  /** The executor once open. */
  readonly current: Executor | undefined;
  /** The prompt a user line's `uuid` became (rewind_files), once its turn ended. */
  promptOf(uuid: string): Promise<string | undefined>;
  /** The program's in-process MCP servers (its own mcp_message requests go to them). */
  readonly mcp: SdkMcpServers | undefined;
}
