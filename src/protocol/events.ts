// Events the agent emits. The text, json and stream-json writers and the TTY renderer are four
// consumers of this one stream; nothing below the CLI writes to the terminal itself.

import type { Message, Usage } from "./message.ts";

export type ResultSubtype = "success" | "error_max_turns" | "error_during_execution" | "interrupted";

export interface RunStats {
  shells_spawned: number;
  shells_reused: number;
  shells_retired: number;
  commands_run: number;
  tasks_run: number;
  messages_archived: number;
  messages_evicted: number;
  memory_actions: number;
  peak_heap_mb: number;
  peak_rss_mb: number;
  /** The memory monitor asked for the context to be compacted. */
  compaction_requested: boolean;
}

export interface RunResult {
  subtype: ResultSubtype;
  is_error: boolean;
  result: string;
  session_id: string;
  num_turns: number;
  duration_ms: number;
  usage: Usage;
  stats: RunStats;
  /** Set when the run itself finished but its session could not be saved. */
  error?: string;
}

export type AgentEvent =
  | { type: "init"; session_id: string; model: string; provider: string; cwd: string; tools: string[] }
  /** A piece of assistant text as it streams. */
  | { type: "text_delta"; text: string }
  /** The stream for this turn was cut or failed and is being retried: drop its partial text. */
  | { type: "turn_retry"; attempt: number; delay_ms: number; reason: string }
  /** One finished assistant turn (text and tool calls). */
  | { type: "assistant"; message: Message }
  | { type: "tool_start"; id: string; name: string; input: unknown }
  /** Live output of a running tool (e.g. lines from a shell command). */
  | { type: "tool_progress"; id: string; name: string; text: string }
  | { type: "tool_end"; id: string; name: string; is_error: boolean; summary: string }
  /** The user-role message carrying tool results back to the model. */
  | { type: "user"; message: Message }
  | { type: "warning"; message: string }
  | { type: "result"; result: RunResult };

export type EventSink = (event: AgentEvent) => void;
