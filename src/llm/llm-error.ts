// Turns whatever an SDK call threw into one ProviderError that says what the API said and whether
// another attempt could succeed; retry.ts reads only this.

import { InterruptedError, ProviderError, SynapseError, errorMessage } from "../protocol/errors.ts";

/** The raw retry hints a response carried (`retry-after`: seconds or HTTP date; `retry-after-ms`). */
export interface RetryAfter {
  seconds?: string | null;
  ms?: string | null;
}

/** A ProviderError that also carries the server's retry hint. */
export class LlmError extends ProviderError {
  constructor(
    message: string,
    status?: number,
    retryable = false,
    readonly retryAfter?: RetryAfter,
  ) {
    super(message, status, retryable);
  }
}

/** Statuses worth another attempt: rate limits, server faults, gateways, Anthropic's overload. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

/** Error types that arrive inside a 200 stream and mean "try again" (Anthropic and OpenAI names). */
const RETRYABLE_STREAM_TYPES = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "timeout_error",
  "server_error",
  "rate_limit_exceeded",
  "service_unavailable",
]);

/** The error classes of one SDK, passed in because the SDK itself is loaded lazily. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

/** What either SDK's errors, and Bun's fetch errors, may carry: every field optional, none trusted. */
interface ErrorFields {
  status?: unknown;
  type?: unknown;
  code?: unknown;
  path?: unknown;
  message?: unknown;
  apiMessage?: unknown;
  headers?: unknown;
  cause?: ErrorFields;
  error?: {
    error?: { code?: unknown; type?: unknown; message?: unknown };
    code?: unknown;
    type?: unknown;
    message?: unknown;
  };
}
const fieldsOf = (err: unknown): ErrorFields => (typeof err === "object" && err !== null ? (err as ErrorFields) : {});

const MAX_MESSAGE = 500;

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > MAX_MESSAGE ? `${one.slice(0, MAX_MESSAGE)}…` : one;
}

function retryAfterOf(headers: unknown): RetryAfter | undefined {
  if (!headers || typeof (headers as Headers).get !== "function") return undefined;
  const h = headers as Headers;
  const hint = { seconds: h.get("retry-after"), ms: h.get("retry-after-ms") };
  return hint.seconds || hint.ms ? hint : undefined;
}

/** The API's own error type and message, from either SDK's APIError. */
function apiDetails(err: ErrorFields): { type?: string; message: string } {
  // Anthropic: err.error is the whole body {type:"error", error:{type, message}}.
  // OpenAI: err.error is the inner {message, type, param, code}.
  const inner = err.error?.error ?? err.error;
  const type = inner?.code ?? inner?.type ?? err.type ?? undefined;
  const fallback = err.apiMessage ?? err.message;
  let message = typeof inner?.message === "string" ? inner.message : typeof fallback === "string" ? fallback : "";
  if (err.status) message = message.replace(new RegExp(`^${err.status} `), "");
  return { type: typeof type === "string" ? type : undefined, message: clip(message) };
}

/** One short line naming the socket failure, without Bun's "pass verbose: true" advice. */
function connectionCause(err: ErrorFields): string {
  const parts: string[] = [];
  for (const e of [err, err.cause]) {
    if (!e) continue;
    const text = errorMessage(e).replace(/\s*For more information, pass `verbose: true`.*$/s, "");
    for (const part of [e.code, text]) {
      if (part && !parts.some((p) => p.includes(String(part)))) parts.push(String(part));
    }
  }
  return clip(
    parts.filter((p, i) => !parts.some((q, j) => j !== i && q.length > p.length && q.includes(p))).join(": "),
  );
}

/** " to <url>": Bun's fetch errors carry the URL asked in `path`, so a wrong base URL shows. */
function toUrl(err: ErrorFields): string {
  const url = [err.path, err.cause?.path].find((p) => typeof p === "string" && /^https?:\/\//.test(p));
  return url ? ` to ${url}` : "";
}

const NETWORK_CODES = new RegExp(
  `^(${[
    "ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|ECONNABORTED|ENOTFOUND|EAI_AGAIN|UND_ERR",
    "ERR_STREAM_PREMATURE_CLOSE|ConnectionRefused|ConnectionClosed",
  ].join("|")})`,
);

/** Bun's fetch reports a dropped socket as a plain TypeError with a code, outside the SDK's classes. */
function isNetworkError(err: unknown): boolean {
  const code = String(fieldsOf(err).code ?? fieldsOf(err).cause?.code ?? "");
  if (NETWORK_CODES.test(code)) return true;
  return err instanceof TypeError && /socket|connection|network|fetch failed|terminated/i.test(errorMessage(err));
}

/**
 * Maps anything thrown while streaming to our error classes. `provider` names the API in messages
 * about transport failures, where the API said nothing itself.
 */
export function toProviderError(
  err: unknown,
  sdk: SdkErrorClasses,
  provider: string,
  signal: AbortSignal,
): SynapseError {
  if (err instanceof SynapseError) return err;
  if (signal.aborted || err instanceof sdk.APIUserAbortError) return new InterruptedError();
  const e = fieldsOf(err);
  if (err instanceof sdk.APIConnectionError) {
    return new LlmError(
      `${provider}: connection failed${toUrl(e)} (${connectionCause(e.cause ?? e)})`,
      undefined,
      true,
    );
  }
  if (err instanceof sdk.APIError && typeof e.status === "number") {
    const { type, message } = apiDetails(e);
    const text = `${e.status} ${type ? `${type}: ` : ""}${message || "no error body"}`;
    return new LlmError(text, e.status, RETRYABLE_STATUSES.has(e.status), retryAfterOf(e.headers));
  }
  if (err instanceof sdk.APIError) {
    // An error event inside a stream that had already started with 200.
    const { type, message } = apiDetails(e);
    const retryable = type !== undefined && RETRYABLE_STREAM_TYPES.has(type);
    return new LlmError(`${provider} stream error ${type ? `${type}: ` : ""}${message}`, undefined, retryable);
  }
  if (isNetworkError(e)) {
    return new LlmError(`${provider}: connection lost${toUrl(e)} (${connectionCause(e)})`, undefined, true);
  }
  if (err instanceof SyntaxError) {
    return new LlmError(`${provider}: unreadable response (${clip(err.message)})`, undefined, false);
  }
  return new LlmError(`${provider}: ${clip(errorMessage(err))}`, undefined, false);
}

/**
 * A stream that ended without its final event was cut by the network: the turn is incomplete and
 * worth another try. One with no events at all is something else answering (a web page at a wrong
 * base URL, say), which retrying will not fix.
 */
export function cutStreamError(provider: string, events: number): LlmError {
  if (events === 0) {
    return new LlmError(
      `${provider}: the response held no stream events (is the base URL an API endpoint?)`,
      undefined,
      false,
    );
  }
  return new LlmError(`${provider}: stream ended before the reply was complete`, undefined, true);
}
