// The messages between the main thread and a sub-agent's worker thread: the task going in, the
// answer coming back, and what travels on the task's port meanwhile (events, shell commands).

import type { Config } from "../config/config.ts";
import type { AgentEvent, ResultSubtype } from "../protocol/events.ts";
import type { Usage } from "../protocol/message.ts";
import type { RunOutcome } from "../shell/types.ts";
import type { TaskKind } from "./task-command.ts";

export interface SubAgentInput {
  /** File-name-safe id: the transcript folder and the shell pool's task id. */
  taskId: string;
  kind: TaskKind;
  prompt: string;
  /** The row label; also the transcript's title. */
  title: string;
  systemPrompt: string;
  /** The parent's resolved config (permission mode and rules included); in-process, so keys may travel. */
  config: Config;
  /** The parent session's folder; the transcript goes under `tasks/`. */
  sessionDir: string;
  /** Rules granted in the parent session; the policy itself is rebuilt from `config`. */
  granted: string[];
  heapReportMs: number;
}

export interface SubAgentOutput {
  subtype: ResultSubtype;
  result: string;
  numTurns: number;
  usage: Usage;
  toolCalls: number;
}

export interface ShellRequestWire {
  command: string;
  cwd: string;
  timeoutMs: number;
}

export type FromWorker =
  | { t: "started" }
  | { t: "done" }
  | { t: "heap"; bytes: number }
  | { t: "event"; event: AgentEvent }
  | { t: "shell"; id: number; request: ShellRequestWire }
  | { t: "shell-abort"; id: number };

export type ToWorker =
  | { t: "abort" }
  | { t: "shell-done"; id: number; outcome: RunOutcome }
  | { t: "shell-error"; id: number; message: string };
