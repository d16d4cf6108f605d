// Summarises a condensed stretch of the conversation with the model. When the conversation fits,
// one call that carries the last turn's system prompt, tools and messages unchanged plus the request
// for a summary, so it reads them from the prompt cache (as Claude Code's compaction does); else
// one call over a transcript, or a chain of them over chunks when the transcript is too large.

import type { Config } from "../config/config.ts";
import { streamWithRetry } from "../llm/retry.ts";
import type { ModelRequest, Provider, ToolSpec } from "../llm/types.ts";
import { InterruptedError, ProviderError, errorMessage } from "../protocol/errors.ts";
import type { CompactionInfo, Message, Usage } from "../protocol/message.ts";
import type { SessionStore } from "../store/types.ts";
import { keepUserMessages } from "./compaction-record.ts";
import { SUMMARY_SYSTEM, promptText, summaryPrompt, transcriptOf } from "./summary-prompt.ts";
import { CHARS_PER_TOKEN, estimateTextTokens, estimateTokens } from "./token-estimate.ts";

/** Output tokens the summary call may use. */
const SUMMARY_MAX_TOKENS = 4096;
/** How long a cached prefix lives after its last use (Anthropic's default; OpenAI keeps it about as long). */
export const CACHE_LIFE_MS = 5 * 60_000;

/**
 * Whether the turn's request is likely still cached: a request went out less than CACHE_LIFE_MS
 * ago. Else repeating it would write it all again (1.25× input), dearer than a transcript.
 */
export function cacheWarm(lastSentAt: number | undefined, now: number): boolean {
  return lastSentAt !== undefined && now - lastSentAt < CACHE_LIFE_MS;
}

export interface SummaryInput {
  task: string;
  previous?: string;
  middle: Message[];
  userMessages: string[];
  focus?: string;
  signal: AbortSignal;
}

/** The last turn's request as sent (images selected): a summary call that repeats it reads its cache. */
export interface CachedPrefix {
  system: string;
  tools: ToolSpec[];
  messages: Message[];
  /** Its prompt tokens (system and tools included). */
  tokens: number;
  /** The session's id: OpenAI routes it to the same cache as the turns (prompt_cache_key). */
  cacheKey?: string;
}

export interface SummaryCallDeps {
  config: Config;
  provider: Provider;
  store: Pick<SessionStore, "loadImage">;
}

export interface SummaryHooks {
  /** A prompt of this many characters is about to be sent (garbage once the call returns). */
  onPrompt(chars: number): void;
  /** A summary call returned and used this much. */
  onCall(usage: Usage): void;
}

/** The transcript's entries joined into chunks of at most `room` characters (an entry longer is cut). */
function chunksOf(entries: string[], room: number): string[] {
  const chunks: string[] = [];
  let chunk = "";
  for (const e of entries) {
    const piece = e.length > room ? e.slice(0, room) : e;
    if (chunk && chunk.length + piece.length + 2 > room) {
      chunks.push(chunk);
      chunk = "";
    }
    chunk += (chunk ? "\n\n" : "") + piece;
  }
  if (chunk || !chunks.length) chunks.push(chunk);
  return chunks;
}

/** One summary call: its text, or a ProviderError when it came back empty or as a tool call. */
async function callSummary(
  deps: SummaryCallDeps,
  parts: Pick<ModelRequest, "system" | "messages" | "tools" | "cacheKey">,
  signal: AbortSignal,
  hooks: SummaryHooks,
): Promise<string> {
  // Read each time: the session's provider may change between calls.
  const { config, provider } = deps;
  const turn = await streamWithRetry(
    provider,
    {
      model: provider.model,
      ...parts,
      maxTokens: Math.min(SUMMARY_MAX_TOKENS, config.maxTokens),
      signal,
      loadImage: (ref) => deps.store.loadImage(ref),
    },
    { onText: () => undefined },
    {
      maxRetries: config.maxRetries,
      baseMs: config.retryBaseMs,
      maxMs: config.retryMaxMs,
      idleTimeoutMs: config.streamIdleMs,
    },
  );
  hooks.onCall(turn.usage);
  // The call carried the tools so that its prefix matches the turn's; a call is no summary.
  if (turn.content.some((b) => b.type === "tool_use"))
    throw new ProviderError("the model called a tool instead of writing the summary");
  const out = turn.content
    .map((b) => (b.type === "text" ? b.text : ""))
    .join("")
    .trim()
    .toWellFormed();
  if (!out) throw new ProviderError("the summary came back empty");
  return out;
}

/** `messages` with `text` asked last: in the last user message (roles keep alternating), else after. */
export function withRequest(messages: readonly Message[], text: string): Message[] {
  const last = messages.at(-1);
  const block = { type: "text" as const, text };
  if (last?.role === "user") return [...messages.slice(0, -1), { ...last, content: [...last.content, block] }];
  return [...messages, { id: "summary-request", role: "user", content: [block], ts: Date.now() }];
}

/** Whether the cached prefix, the request and the summary fit the window together. */
function prefixFits(prefix: CachedPrefix | undefined, promptChars: number, window: number): prefix is CachedPrefix {
  return prefix !== undefined && prefix.tokens + promptChars / CHARS_PER_TOKEN + SUMMARY_MAX_TOKENS <= window;
}

/**
 * The summary of `input.middle` (after `input.previous`) for a model of `window` tokens: over the
 * cached `prefix` when it fits, else over a transcript.
 */
export async function summarise(
  deps: SummaryCallDeps,
  window: number,
  input: SummaryInput,
  hooks: SummaryHooks,
  prefix?: CachedPrefix,
): Promise<string> {
  const { task, userMessages, focus, signal } = input;
  const asked = summaryPrompt({ task, previousSummary: input.previous, userMessages, focus });
  if (prefixFits(prefix, asked.length, window)) {
    hooks.onPrompt(asked.length * 3);
    const { system, tools, messages, cacheKey } = prefix;
    return callSummary(deps, { system, tools, cacheKey, messages: withRequest(messages, asked) }, signal, hooks);
  }
  const budgetChars = Math.max(8000, (window - SUMMARY_MAX_TOKENS) * 0.6 * CHARS_PER_TOKEN);
  const fixed = task.length + userMessages.reduce((n, m) => n + m.length, 0) + 4000;
  let entries = transcriptOf(input.middle);
  if (entries.reduce((n, e) => n + e.length, 0) + fixed > budgetChars) entries = transcriptOf(input.middle, 500);
  const chunks = chunksOf(entries, Math.max(4000, budgetChars - fixed));
  let summary = input.previous;
  for (const transcript of chunks) {
    const text = summaryPrompt({ task, previousSummary: summary, transcript, userMessages, focus });
    // The prompt, its transcript and the request body are garbage once the call returns.
    hooks.onPrompt(text.length * 3);
    const messages: Message[] = [
      { id: "summary-request", role: "user", content: [{ type: "text", text }], ts: Date.now() },
    ];
    summary = await callSummary(deps, { system: SUMMARY_SYSTEM, messages, tools: [] }, signal, hooks);
  }
  // Never without a summary: the middle of a condense is at least two messages, so one chunk at least.
  if (summary === undefined) throw new ProviderError("the summary came back empty");
  return summary;
}

/**
 * The summary standing for `middle` (with the user's own messages since `previous` within
 * `userBudget` tokens), or why there is none: the call failed, or the summary was not smaller than
 * what it would replace. Interrupted: throws InterruptedError.
 */
export async function summaryOf(
  deps: SummaryCallDeps,
  window: number,
  input: Omit<SummaryInput, "previous" | "userMessages"> & {
    previous?: CompactionInfo;
    userBudget: number;
    prefix?: CachedPrefix;
  },
  hooks: SummaryHooks,
): Promise<{ summary?: string; failure?: string }> {
  const { previous, middle, signal } = input;
  const userMessages = keepUserMessages(
    [...(previous?.userMessages ?? []), ...middle.map(promptText).filter((t): t is string => t !== undefined)],
    input.userBudget,
  );
  let summary: string;
  try {
    const { task, focus } = input;
    summary = await summarise(
      deps,
      window,
      { task, previous: previous?.summary, middle, userMessages, focus, signal },
      hooks,
      input.prefix,
    );
  } catch (err) {
    if (err instanceof InterruptedError || signal.aborted) throw new InterruptedError();
    return { failure: errorMessage(err) };
  }
  if (estimateTextTokens(summary) >= estimateTokens(middle))
    return { failure: "the summary was not smaller than what it replaced" };
  return { summary };
}
