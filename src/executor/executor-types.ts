// The executor's contract with its callers (the headless run, the interactive sessions, ACP): what
// goes in (a submission), what comes out (its outcome and the events the UI is told).

import type { Config } from "../config/config.ts";
import type { AgentEvent, RunResult } from "../protocol/events.ts";
import type { ResumeTarget } from "../store/session.ts";
import type { SessionRuntime } from "./session-runtime.ts";
import type { Choices, SessionFacts, SlashCommand } from "./slash-command.ts";

export interface Compaction {
  tokensBefore: number;
  tokensAfter: number;
  /** prune, summary, window; "none" when there was nothing to condense. */
  method?: string;
  /** Whole turns kept after the summary or window. */
  keptTurns?: number;
}

export type SubmissionStatus = "done" | "interrupted" | "failed";

export interface SubmissionOutcome {
  id: string;
  status: SubmissionStatus;
  /** The agent run's result, when the submission ran the agent. */
  result?: RunResult;
  compaction?: Compaction;
  /** What went wrong (a command's refusal, a failed compaction, a usage error). */
  error?: string;
  /** Exit code a usage problem asks for (2), when error is set by one. */
  errorCode?: number;
  /** `/exit` was asked for. */
  exit: boolean;
  /** Text for the prompt's draft: `/rewind` puts the rewound prompt back. */
  draft?: string;
}

/** What the executor tells its UI, besides the agent's own events. */
export type ExecutorEvent =
  | AgentEvent
  | { type: "submission_start"; id: string; text: string }
  /** `choices`: the same list to pick from (the interactive session opens a picker instead of the lines). */
  | { type: "command_output"; id: string; lines: string[]; is_error: boolean; choices?: Choices }
  | { type: "model_changed"; model: string }
  | { type: "session_changed"; session_id: string; previous: string }
  | { type: "compacted"; id: string; tokens_before: number; tokens_after: number }
  | { type: "submission_end"; outcome: SubmissionOutcome };

export interface ExecutorOptions {
  config: Config;
  /** Opens a runtime whose agent events go to the given sink (new session, or a resumed one). */
  open(emit: (event: AgentEvent) => void, resume?: ResumeTarget): Promise<SessionRuntime>;
  resume?: ResumeTarget;
  emit(event: ExecutorEvent): void;
  commands?: readonly SlashCommand[];
}

export interface SubmitInput {
  text: string;
  /** Image paths attached to a prompt (headless --image). */
  images?: string[];
  /** `!command` runs in the session's shell (the interactive session's bash mode), not as a prompt. */
  shellMode?: boolean;
  /** `@path` mentions attach the files' contents, read through Read (the interactive session). */
  attachMentions?: boolean;
}

export interface Executor {
  readonly runtime: SessionRuntime;
  /** Queues one submission; it runs after those before it. Returns its id. */
  submit(input: SubmitInput): string;
  /** Resolves when the submission's work is done (at once with the outcome for a finished one it still knows). */
  waitFor(id: string): Promise<SubmissionOutcome>;
  /** Cancels one submission (the running one when no id is given); queued ones are skipped. */
  interrupt(id?: string): void;
  /** Cancels every submission, running and queued. */
  interruptAll(): void;
  /** The id of the running submission, if any. */
  running(): string | undefined;
  /** Submissions the executor still holds (running or queued). Zero when idle. */
  pending(): number;
  facts(): SessionFacts;
  close(): Promise<void>;
  killNow(): void;
}
