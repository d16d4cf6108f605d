// The one message shape every layer shares: the store archives it, the agent builds context from
// it, and each provider translates it to its own wire format at request time.

export type Role = "user" | "assistant";

export interface TextBlock {
  type: "text";
  text: string;
}

/** An image lives on disk (content-addressed); a message only holds this reference. */
export interface ImageRef {
  sha256: string;
  mediaType: string;
  bytes: number;
}

export interface ImageBlock {
  type: "image";
  image: ImageRef;
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
  /**
   * Set when what the model sent was not a JSON object: its text, as sent (`input` is then `{}`).
   * The call is answered with an is_error result and never run; the API gets only `input`.
   */
  raw_input?: string;
}

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string | Array<TextBlock | ImageBlock>;
  is_error?: boolean;
}

export type ContentBlock = TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock;

export interface Usage {
  /** All prompt tokens of the request, cached or not. */
  input_tokens: number;
  output_tokens: number;
  /** Of input_tokens: read from the provider's prompt cache (billed at a fraction of input). */
  cache_read_input_tokens?: number;
  /** Of input_tokens: written to the prompt cache (Anthropic bills them above input). */
  cache_creation_input_tokens?: number;
}

export interface Message {
  /** Unique within a session; the store indexes by it. */
  id: string;
  role: Role;
  content: ContentBlock[];
  /** Epoch milliseconds. */
  ts: number;
  /** Usage reported for the request that produced this (assistant) message. */
  usage?: Usage;
  stop_reason?: string;
  /** A compaction summary standing in for older messages. */
  isSummary?: boolean;
  /**
   * Set on the compaction record: the summary message a condense appends to the archive. Resume
   * rebuilds the context from the last such record onward; `synapse compact` may compress every
   * archive segment that ends before it.
   */
  compaction?: CompactionInfo;
}

/** What one condense replaced and what it cost, as recorded in the archive. */
export interface CompactionInfo {
  trigger: "auto" | "manual" | "reactive";
  /** Archived messages the summary stands in for (first and last id, how many). */
  firstId: string;
  lastId: string;
  count: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Ids of the recent messages kept verbatim after the summary, oldest first. */
  keptIds: string[];
  /** "summary": a model-written summary; "window": the fallback, a marker saying what was left out. */
  method?: "summary" | "window";
  /** The session's first prompt, carried from record to record. */
  task?: string;
  summary?: string;
  /** The user's own messages kept verbatim (within a budget), oldest first. */
  userMessages?: string[];
}

/**
 * Ends the kept text of a turn cut by an interrupt: the model must know its answer stopped there.
 * It is for the model; the user was told on stderr, and an answer saved to a file must not hold it.
 */
export const INTERRUPTED_NOTE = "\n\n[interrupted by the user]";

/**
 * A user message of its own after a prompt the user abandoned before any answer was kept (Esc,
 * Ctrl-C): the next prompt is then a new request, not a continuation (Claude Code's wording).
 */
export const INTERRUPTED_PROMPT = "[Request interrupted by user]";
/** The same mark after a prompt whose request failed (an API error) before any answer. */
export const FAILED_PROMPT = "[Request failed before an answer]";

let counter = 0;
/** Ids sort by creation time within a process and never repeat. */
export function newMessageId(): string {
  counter = (counter + 1) % 1_000_000;
  return `m${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}${Math.random().toString(36).slice(2, 6)}`;
}

export function textOf(message: Pick<Message, "content">): string {
  return message.content
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => b.text)
    .join("");
}
