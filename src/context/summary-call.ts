// Summarises a condensed stretch of the conversation with the model: one call, or a chain of them
// over chunks when the transcript is too large for one.

import type { Config } from "../config/config.ts";
import { streamWithRetry } from "../llm/retry.ts";
import type { Provider } from "../llm/types.ts";
import { InterruptedError, ProviderError, errorMessage } from "../protocol/errors.ts";
import type { CompactionInfo, Message, Usage } from "../protocol/message.ts";
import type { SessionStore } from "../store/types.ts";
import { keepUserMessages } from "./compaction-record.ts";
import { SUMMARY_SYSTEM, promptText, summaryPrompt, transcriptOf } from "./summary-prompt.ts";
import { CHARS_PER_TOKEN, estimateTextTokens, estimateTokens } from "./token-estimate.ts";

/** Output tokens the summary call may use. */
const SUMMARY_MAX_TOKENS = 4096;

export interface SummaryInput {
  task: string;
  previous?: string;
  middle: Message[];
  userMessages: string[];
  focus?: string;
  signal: AbortSignal;
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

/** The summary of `input.middle` (after `input.previous`) for a model of `window` tokens. */
export async function summarise(
  deps: SummaryCallDeps,
  window: number,
  input: SummaryInput,
  hooks: SummaryHooks,
): Promise<string> {
  const budgetChars = Math.max(8000, (window - SUMMARY_MAX_TOKENS) * 0.6 * CHARS_PER_TOKEN);
  const fixed = input.task.length + input.userMessages.reduce((n, m) => n + m.length, 0) + 4000;
  let entries = transcriptOf(input.middle);
  if (entries.reduce((n, e) => n + e.length, 0) + fixed > budgetChars) entries = transcriptOf(input.middle, 500);
  const chunks = chunksOf(entries, Math.max(4000, budgetChars - fixed));
  let summary = input.previous;
  for (const transcript of chunks) {
    const text = summaryPrompt({
      task: input.task,
      previousSummary: summary,
      transcript,
      userMessages: input.userMessages,
      focus: input.focus,
    });
    // The prompt, its transcript and the request body are garbage once the call returns.
    hooks.onPrompt(text.length * 3);
    // Read each time: the session's provider may change between calls.
    const { config, provider } = deps;
    const turn = await streamWithRetry(
      provider,
      {
        model: provider.model,
        system: SUMMARY_SYSTEM,
        messages: [{ id: "summary-request", role: "user", content: [{ type: "text", text }], ts: Date.now() }],
        tools: [],
        maxTokens: Math.min(SUMMARY_MAX_TOKENS, config.maxTokens),
        signal: input.signal,
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
    const out = turn.content
      .map((b) => (b.type === "text" ? b.text : ""))
      .join("")
      .trim()
      .toWellFormed();
    if (!out) throw new ProviderError("the summary came back empty");
    summary = out;
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
  input: Omit<SummaryInput, "previous" | "userMessages"> & { previous?: CompactionInfo; userBudget: number },
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
    );
  } catch (err) {
    if (err instanceof InterruptedError || signal.aborted) throw new InterruptedError();
    return { failure: errorMessage(err) };
  }
  if (estimateTextTokens(summary) >= estimateTokens(middle))
    return { failure: "the summary was not smaller than what it replaced" };
  return { summary };
}
