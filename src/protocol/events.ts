// Events the agent emits. The text, json and stream-json writers and the TTY renderer are four
// consumers of this one stream; nothing below the CLI writes to the terminal itself.

import type { Message, Usage } from "./message.ts";
import type { ModelUsage } from "./model-usage.ts";
import type { ToolDisplay } from "./tool-display.ts";

/**
 * error_max_tokens: the final answer was cut at the output limit (README "Output");
 * error_max_structured_output_retries: it never matched --json-schema (agent/structured-output.ts).
 */
export type ResultSubtype =
  | "success"
  | "error_max_turns"
  | "error_max_tokens"
  | "error_max_budget_usd"
  | "error_max_structured_output_retries"
  | "error_during_execution"
  | "interrupted";

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
  /** Condenses of the context during this run (prunes, summaries, window fallbacks). */
  compactions: number;
  /** Tokens by how they were billed, and dollars (null: no price known for the model). */
  cost?: RunCost;
}

export interface RunCost {
  usd: number | null;
  uncached_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
  /** Cache reads over all prompt tokens. */
  cache_hit_rate: number;
}

export interface RunResult {
  subtype: ResultSubtype;
  is_error: boolean;
  result: string;
  session_id: string;
  num_turns: number;
  duration_ms: number;
  /** Milliseconds spent in model requests (summary calls and sub-agents' too; parallel ones add up). */
  duration_api_ms: number;
  usage: Usage;
  /** The usage per model, Claude Code's `modelUsage` (see llm/model-usage.ts). */
  modelUsage: Record<string, ModelUsage>;
  /** Dollars this run's requests cost (summary calls included), when the model has a price. */
  total_cost_usd?: number;
  stats: RunStats;
  /** Set when the run itself finished but its session could not be saved. */
  error?: string;
  /** The last model turn's stop reason (end_turn, max_tokens, ...), when the run ended on one. */
  stop_reason?: string;
  /** The final answer's JSON value, valid against --json-schema (Claude Code's field). */
  structured_output?: unknown;
  /** Why the run ended where the subtype does not say: a hook's `"continue": false` (Claude Code's field). */
  terminal_reason?: "hook_stopped";
}

export type AgentEvent =
  | {
      type: "init";
      session_id: string;
      model: string;
      provider: string;
      cwd: string;
      tools: string[];
      /** The MCP servers and their states (connected, failed, needs-approval), as Claude Code reports them. */
      mcp_servers?: Array<{ name: string; status: string }>;
    }
  /** A piece of assistant text as it streams. */
  | { type: "text_delta"; text: string }
  /** The stream for this turn was cut or failed and is being retried: drop its partial text. */
  | { type: "turn_retry"; attempt: number; delay_ms: number; reason: string }
  /** One finished assistant turn (text and tool calls); a sub-agent's carries its calling tool call's id. */
  | { type: "assistant"; message: Message; parent_tool_use_id?: string }
  /** `raw_input`: what the model sent when it was not a JSON object (`input` is then `{}`). */
  | { type: "tool_start"; id: string; name: string; input: unknown; raw_input?: string }
  /** Live output of a running tool (e.g. lines from a shell command). */
  | { type: "tool_progress"; id: string; name: string; text: string }
  /** `display`: what the interactive view draws besides the summary (exit code, line count, diff). */
  | { type: "tool_end"; id: string; name: string; is_error: boolean; summary: string; display?: ToolDisplay }
  /** The user-role message carrying tool results back to the model. */
  | { type: "user"; message: Message; parent_tool_use_id?: string }
  /** A sub-agent was asked for (it may wait in the queue); `id` is the calling tool call's id. */
  | { type: "task_start"; id: string; kind: string; description: string }
  /**
   * A sub-agent left the queue, or made another tool call: `tool` is the call it is making (its
   * input with the session's secret values already redacted; still untrusted text to render inert).
   */
  | { type: "task_progress"; id: string; state: "running"; tool_calls: number; tool?: { name: string; input: unknown } }
  | { type: "task_end"; id: string; is_error: boolean; duration_ms: number; tool_calls: number; summary: string }
  | { type: "warning"; message: string }
  /** A summary or window condense begins: `messages` to be condensed, the last `keep_turns` whole turns kept. */
  | { type: "compact_start"; trigger: "auto" | "manual" | "reactive"; messages: number; keep_turns: number }
  /** The context was condensed (prune, summary, or the sliding-window fallback). */
  | {
      type: "compact_boundary";
      trigger: "auto" | "manual" | "reactive";
      method: "prune" | "summary" | "window";
      tokens_before: number;
      tokens_after: number;
      messages_replaced: number;
    }
  /** The permission policy refused a tool call; `allow_with` is the flag that would allow it. */
  | { type: "permission_denied"; id: string; name: string; reason: string; allow_with?: string }
  | { type: "result"; result: RunResult };

export type EventSink = (event: AgentEvent) => void;
