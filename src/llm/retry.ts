// Retries a streamed turn on transient failures (rate limits, overload, server faults, dropped
// connections, cut streams) with exponential backoff and full jitter, honouring retry-after.
// A cut stream is always safe to retry: tools run only after a turn's stream has finished.

import { InterruptedError, ProviderError } from "../protocol/errors.ts";
import { LlmError, type RetryAfter } from "./llm-error.ts";
import type { AssistantTurn, ModelRequest, Provider, StreamCallbacks } from "./types.ts";

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** The error that caused the retry, as one line. */
  reason: string;
  error: ProviderError;
}

export interface RetryOptions {
  maxRetries: number;
  baseMs: number;
  maxMs: number;
  /** Called before each wait; text streamed by the failed attempt should be discarded. */
  onRetry?(info: RetryInfo): void;
  /** For tests: the jitter source. */
  random?: () => number;
  /** An attempt that receives nothing (not even a ping) for this long is abandoned and retried. */
  idleTimeoutMs?: number;
}

/** Milliseconds the server asked for, or undefined when it gave no usable hint. */
export function retryAfterMs(hint: string | RetryAfter | null | undefined, now = Date.now()): number | undefined {
  if (!hint) return undefined;
  const { seconds, ms } = typeof hint === "string" ? { seconds: hint, ms: undefined } : hint;
  if (ms != null && ms.trim() !== "") {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  if (seconds == null || seconds.trim() === "") return undefined;
  const text = seconds.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // An HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT"): wait until then; a past date means now.
  // Anything without letters ("-3") is a malformed number, not a date.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The wait before retry number `attempt` (1-based): the server's hint when it gave one, else a
 * uniformly random time up to min(maxMs, baseMs * 2^(attempt-1)) ("full jitter", so clients that
 * failed together do not retry together).
 */
export function retryDelay(
  attempt: number,
  baseMs: number,
  maxMs: number,
  retryAfter?: string | RetryAfter | null,
  random: () => number = Math.random,
  now = Date.now(),
): number {
  const hinted = retryAfterMs(retryAfter, now);
  if (hinted !== undefined) return hinted;
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(random() * ceiling);
}

/** Waits, or rejects with InterruptedError the moment the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new InterruptedError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** "0.5 s", "1 s", "300 s": a limit set below a second (SYNAPSE_STREAM_IDLE_MS=500) is not said as "1 s". */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function giveUp(err: ProviderError, retries: number, note?: string): ProviderError {
  const suffix = note ?? (retries > 0 ? `gave up after ${retries} ${retries === 1 ? "retry" : "retries"}` : "");
  if (!suffix) return err;
  const hint = err instanceof LlmError ? err.retryAfter : undefined;
  return new LlmError(`${err.message} (${suffix})`, err.status, err.retryable, hint);
}

export async function streamWithRetry(
  provider: Provider,
  request: ModelRequest,
  callbacks: StreamCallbacks,
  options: RetryOptions,
): Promise<AssistantTurn> {
  const random = options.random ?? Math.random;
  for (let retries = 0; ; retries++) {
    try {
      return await attemptWithWatchdog(provider, request, callbacks, options.idleTimeoutMs);
    } catch (err) {
      if (request.signal.aborted) throw new InterruptedError();
      if (!(err instanceof ProviderError) || !err.retryable) throw err;
      if (retries >= options.maxRetries) throw giveUp(err, retries);
      const attempt = retries + 1;
      const hint = err instanceof LlmError ? err.retryAfter : undefined;
      const delayMs = retryDelay(attempt, options.baseMs, options.maxMs, hint, random);
      // A server asking for longer than we would ever wait (a spend cap, say) will not recover soon.
      if (delayMs > options.maxMs) {
        throw giveUp(
          err,
          retries,
          `the server asked to retry after ${seconds(delayMs)}, beyond the ${seconds(options.maxMs)} retry limit`,
        );
      }
      options.onRetry?.({ attempt, delayMs, reason: err.message, error: err });
      await sleep(delayMs, request.signal);
    }
  }
}

/**
 * One attempt, abandoned when the server goes silent: a stream that stops mid-way without closing
 * (or a server that never answers) would otherwise hang the run until the user interrupts it.
 */
async function attemptWithWatchdog(
  provider: Provider,
  request: ModelRequest,
  callbacks: StreamCallbacks,
  idleMs: number | undefined,
): Promise<AssistantTurn> {
  if (!idleMs) return provider.stream(request, callbacks);
  const attempt = new AbortController();
  const forward = () => attempt.abort();
  request.signal.addEventListener("abort", forward, { once: true });
  let stalled = false;
  const stall = () => {
    stalled = true;
    attempt.abort();
  };
  let timer = setTimeout(stall, idleMs);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(stall, idleMs);
  };
  try {
    return await provider.stream(
      { ...request, signal: attempt.signal },
      {
        ...callbacks,
        onText: (text) => {
          alive();
          callbacks.onText(text);
        },
        onEvent: alive,
      },
    );
  } catch (err) {
    if (stalled && !request.signal.aborted) {
      throw new LlmError(
        `${provider.name}: no data from the server for ${seconds(idleMs)}; the request stalled`,
        undefined,
        true,
      );
    }
    throw err;
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", forward);
  }
}
