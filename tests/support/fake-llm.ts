// A scriptable fake of the Anthropic Messages and OpenAI Chat Completions APIs on 127.0.0.1, speaking
// each API's real wire format (JSON and SSE), for tests and benches. Also runnable as a process:
//   bun tests/support/fake-llm.ts --script replies.json     (prints its URL on stdout)
// where replies.json is a ScriptedReply[] or {"loop": ScriptedReply[]} (cycled forever).

import { type CacheUsage, FakePromptCache, breakpointProblem } from "./fake-cache.ts";
import { checkAnthropic, checkOpenAI } from "./fake-llm-validate.ts";

/** Date.now() with sub-millisecond precision: two requests a fraction of a millisecond apart stay ordered. */
const preciseNow = () => performance.timeOrigin + performance.now();

/** A normal reply. stopReason may use either API's vocabulary; it is translated. */
export interface SuccessReply {
  text?: string;
  /** rawArguments sends these bytes as the tool arguments instead of JSON.stringify(input). */
  toolCalls?: { id?: string; name: string; input: unknown; rawArguments?: string }[];
  stopReason?: string;
  usage?: { input_tokens: number; output_tokens: number };
  /** Wait before the response headers. */
  delayMs?: number;
  /** Wait for this before the response headers: a gate the test opens when the order it checks is set. */
  after?: Promise<unknown>;
  /** Wait between body pieces (SSE events). */
  chunkDelayMs?: number;
  /** Send only this many body pieces, then nothing more until the client goes away: a stalled stream. */
  stallAfter?: number;
}

export type ScriptedReply =
  | SuccessReply
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { cut: true; text?: string }
  | { streamError: { type: string; message: string }; text?: string }
  /** chunkSize splits the bytes into pieces of that many bytes (events and UTF-8 split across reads). */
  | { raw: string; contentType?: string; chunkSize?: number; chunkDelayMs?: number }
  | { hang: true };

export interface RecordedRequest {
  path: string;
  provider: "anthropic" | "openai";
  headers: Record<string, string>;
  body: any;
  receivedAt: number;
  /** performance.now() when the request's headers arrived (before its body was read), and when its response ended. */
  arrivedAt?: number;
  endedAt?: number;
  /** When the response ended (or the client went away), as preciseNow(); unset while in flight. */
  finishedAt?: number;
  /** Bytes of the response body sent so far. */
  sentBytes?: number;
  /** The response body sent so far, as text (not kept with `recordBodies: false`). */
  sent?: string;
  /** How the prompt cache billed this request (replies without a scripted usage). */
  cache?: CacheUsage;
}

export interface FakeLLM {
  url: string;
  requests: RecordedRequest[];
  serverTimeMs: number;
  /** Model requests being answered right now, and the most seen at once. */
  inFlight: number;
  maxInFlight: number;
  /** Requests refused as malformed or over the context window: index into `requests`, the API's message. */
  rejected: Array<{ request: number; message: string }>;
  /** The prompt cache both APIs' usage reports (reads, writes), with its totals. */
  cache: FakePromptCache;
  /**
   * Resolves with the requests once `n` have arrived (only those `which` accepts, when given); after
   * `timeoutMs` it rejects with what did arrive, so a test fails saying why instead of at its timeout.
   */
  waitForRequests(n: number, timeoutMs?: number, which?: (req: RecordedRequest) => boolean): Promise<RecordedRequest[]>;
  /**
   * Resolves once the response to request #`index` (0-based) has sent a body holding `text` `times`
   * times (with no `text`: any byte), so a test acts while an answer is streaming.
   */
  waitForStreamed(index: number, text?: string, times?: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

type Script = ScriptedReply[] | ((req: RecordedRequest, index: number) => ScriptedReply);

export interface FakeModel {
  id: string;
  displayName?: string;
  /** Unix seconds. */
  created?: number;
}

export interface FakeOptions {
  /** What GET /v1/models lists (both APIs). */
  models?: FakeModel[];
  /** When set, GET /v1/models refuses any other key with the API's own 401. */
  apiKey?: string;
  /**
   * The model's context window in tokens, counted as FAKE_CHARS_PER_TOKEN (4) characters of the
   * JSON of system + messages + tools per token; a longer prompt gets the API's own 400.
   */
  contextWindow?: number;
  /** false: a request's body is dropped once answered (long benches would otherwise keep every one). */
  recordBodies?: boolean;
  /** The prompt cache's clock (its entries live 5 minutes); Date.now by default. */
  now?: () => number;
}

/** The 400 a real API gives a malformed conversation (or one over the window), with its own body. */
function rejectionPlan(
  req: RecordedRequest,
  contextWindow: number | undefined,
): { plan: Plan; message: string } | undefined {
  const tooManyMarks = req.provider === "anthropic" ? breakpointProblem(req.body) : undefined;
  const rejection = tooManyMarks
    ? { message: tooManyMarks }
    : req.provider === "anthropic"
      ? checkAnthropic(req.body, contextWindow)
      : checkOpenAI(req.body, contextWindow);
  if (!rejection) return undefined;
  const body =
    req.provider === "anthropic"
      ? {
          type: "error",
          error: { type: "invalid_request_error", message: rejection.message },
          request_id: fakeId("req_fake"),
        }
      : {
          error: {
            message: rejection.message,
            type: "invalid_request_error",
            param: rejection.param ?? null,
            code: rejection.code ?? null,
          },
        };
  return { plan: errorPlan(req.provider, 400, body), message: rejection.message };
}

const DEFAULT_FAKE_MODELS: FakeModel[] = [
  { id: "claude-sonnet-5-5", displayName: "Claude Sonnet 5.5", created: 1_790_000_000 },
  { id: "gpt-5.4", displayName: "GPT-5.4", created: 1_790_000_000 },
];
type Success = SuccessReply;

/** What to send: status, headers, body pieces (each flushed apart), and whether to end by resetting. */
interface Plan {
  status: number;
  headers: Record<string, string>;
  chunks: Array<string | Uint8Array>;
  delayMs?: number;
  after?: Promise<unknown>;
  chunkDelayMs?: number;
  /** Pieces sent before the stream stalls until the client leaves. */
  stallAfter?: number;
  cut?: boolean;
}

const ENDPOINTS: Record<string, RecordedRequest["provider"]> = {
  "/v1/messages": "anthropic",
  "/v1/chat/completions": "openai",
};

const ANTHROPIC_ERRORS: Record<number, [string, string]> = {
  400: ["invalid_request_error", "Invalid request."],
  401: ["authentication_error", "invalid x-api-key"],
  402: ["billing_error", "Your credit balance is too low to access the Anthropic API."],
  403: ["permission_error", "Your API key does not have permission to use the specified resource."],
  404: ["not_found_error", "The requested resource could not be found."],
  409: ["conflict_error", "Conflict."],
  413: ["request_too_large", "Request exceeds the maximum allowed number of bytes."],
  429: ["rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit."],
  500: ["api_error", "Internal server error"],
  504: ["timeout_error", "Request timed out"],
  529: ["overloaded_error", "Overloaded"],
};

const OPENAI_ERRORS: Record<number, [string, string | null, string]> = {
  400: ["invalid_request_error", null, "Invalid request."],
  401: [
    "invalid_request_error",
    "invalid_api_key",
    "Incorrect API key provided: sk-fake. You can find your API key at https://platform.openai.com/account/api-keys.",
  ],
  403: ["invalid_request_error", "unsupported_country_region_territory", "Country, region, or territory not supported"],
  404: ["invalid_request_error", "model_not_found", "The model does not exist or you do not have access to it."],
  429: ["requests", "rate_limit_exceeded", "Rate limit reached for requests. Please try again in 1s."],
  500: ["server_error", null, "The server had an error while processing your request. Sorry about that!"],
  503: ["server_error", null, "The engine is currently overloaded, please try again later."],
};

let serial = 0;
function fakeId(prefix: string): string {
  serial += 1;
  return `${prefix}${Date.now().toString(36)}${serial.toString(36).padStart(4, "0")}`;
}

/** Word-sized pieces, like a model's tokens; whitespace stays attached so the pieces join back. */
function pieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? (text ? [text] : []);
}

function chop<T extends string | Uint8Array>(value: T, size: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size) as T);
  return out;
}

/** Tool arguments arrive in several fragments; real APIs split mid-token and send empty ones. */
function fragments(json: string): string[] {
  return chop(json, Math.ceil(json.length / Math.min(4, Math.max(1, Math.ceil(json.length / 6)))));
}

/** A rough token count, so usage grows with the conversation like the real thing. */
function estimateTokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? "").length / 4));
}

function toolArgs(call: NonNullable<Success["toolCalls"]>[number]): string {
  return call.rawArguments ?? JSON.stringify(call.input ?? {});
}

function usageOf(reply: Success, req: RecordedRequest) {
  return (
    reply.usage ?? {
      input_tokens: promptTokensOf(req),
      output_tokens: estimateTokens([reply.text ?? "", reply.toolCalls ?? []]),
    }
  );
}

function promptTokensOf(req: RecordedRequest): number {
  return estimateTokens([req.body?.system, req.body?.messages, req.body?.tools]);
}

const ANTHROPIC_STOP: Record<string, string> = { tool_calls: "tool_use", stop: "end_turn", length: "max_tokens" };
const OPENAI_STOP: Record<string, string> = { tool_use: "tool_calls", end_turn: "stop", max_tokens: "length" };

function stopReasonOf(reply: Success, provider: RecordedRequest["provider"]): string {
  const fallback = reply.toolCalls?.length ? "tool_use" : "end_turn";
  const given = reply.stopReason ?? fallback;
  return provider === "anthropic" ? (ANTHROPIC_STOP[given] ?? given) : (OPENAI_STOP[given] ?? given);
}

const CUT_FLUSH_MS = 20;
/** How long waitForRequests and waitForStreamed wait by default: well inside a test's own timeout. */
const WAIT_MS = 15_000;

/** One line per request for a failure message: its number, endpoint and the start of its last message. */
function describeRequest(req: RecordedRequest, i: number): string {
  const last = Array.isArray(req.body?.messages) ? req.body.messages.at(-1) : undefined;
  const text = JSON.stringify(last?.content ?? req.body ?? null).slice(0, 100);
  return `\n  #${i} ${req.path} (${req.provider}) last message: ${text}`;
}
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };
const JSON_HEADERS = { "content-type": "application/json" };

// ---- Anthropic Messages ----------------------------------------------------------------------

function anthropicEvent(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** Events up to and including the text block; `partial` stops halfway through the text. */
function anthropicOpening(
  req: RecordedRequest,
  text: string,
  inputTokens: number,
  partial: boolean,
  cache?: CacheUsage,
): string[] {
  // As the API reports them: input_tokens is only what was neither read from nor written to the cache.
  const usage = cache
    ? {
        input_tokens: cache.uncached,
        cache_creation_input_tokens: cache.write,
        cache_read_input_tokens: cache.read,
        output_tokens: 1,
      }
    : { input_tokens: inputTokens, output_tokens: 1 };
  const message = {
    id: fakeId("msg_fake"),
    type: "message",
    role: "assistant",
    model: req.body?.model ?? "claude-fake",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  };
  const out = [anthropicEvent("message_start", { message })];
  if (!text) return out;
  out.push(anthropicEvent("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
  out.push(anthropicEvent("ping", {}));
  const all = pieces(text);
  const sent = partial ? all.slice(0, Math.max(1, Math.floor(all.length / 2))) : all;
  for (const piece of sent) {
    out.push(anthropicEvent("content_block_delta", { index: 0, delta: { type: "text_delta", text: piece } }));
  }
  if (!partial) out.push(anthropicEvent("content_block_stop", { index: 0 }));
  return out;
}

function anthropicStream(reply: Success, req: RecordedRequest): string[] {
  const usage = usageOf(reply, req);
  const out = anthropicOpening(req, reply.text ?? "", usage.input_tokens, false, req.cache);
  let index = reply.text ? 1 : 0;
  for (const call of reply.toolCalls ?? []) {
    const block = { type: "tool_use", id: call.id ?? fakeId("toolu_fake"), name: call.name, input: {} };
    out.push(anthropicEvent("content_block_start", { index, content_block: block }));
    for (const partial_json of ["", ...fragments(toolArgs(call))]) {
      out.push(anthropicEvent("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }));
    }
    out.push(anthropicEvent("content_block_stop", { index }));
    out.push(anthropicEvent("ping", {}));
    index += 1;
  }
  const delta = { stop_reason: stopReasonOf(reply, "anthropic"), stop_sequence: null };
  out.push(anthropicEvent("message_delta", { delta, usage: { output_tokens: usage.output_tokens } }));
  out.push(anthropicEvent("message_stop", {}));
  return out;
}

function anthropicErrorBody(status: number, type?: string, message?: string): object {
  const [defType, defMessage] =
    ANTHROPIC_ERRORS[status] ?? (status >= 500 ? ANTHROPIC_ERRORS[500] : ANTHROPIC_ERRORS[400])!;
  return {
    type: "error",
    error: { type: type ?? defType, message: message ?? defMessage },
    request_id: fakeId("req_fake"),
  };
}

// ---- OpenAI Chat Completions -------------------------------------------------------------------

function openaiChunk(
  req: RecordedRequest,
  id: string,
  delta: object | null,
  finish: string | null,
  extra: object = {},
): string {
  const chunk = {
    id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: req.body?.model ?? "gpt-fake",
    system_fingerprint: "fp_fake",
    choices: delta ? [{ index: 0, delta, logprobs: null, finish_reason: finish }] : [],
    ...extra,
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function openaiOpening(req: RecordedRequest, id: string, text: string, partial: boolean): string[] {
  const out = [openaiChunk(req, id, { role: "assistant", content: text ? "" : null, refusal: null }, null)];
  const all = pieces(text);
  const sent = partial ? all.slice(0, Math.max(1, Math.floor(all.length / 2))) : all;
  for (const piece of sent) out.push(openaiChunk(req, id, { content: piece }, null));
  return out;
}

function openaiUsage(reply: Success, req: RecordedRequest) {
  const u = usageOf(reply, req);
  const details = req.cache ? { prompt_tokens_details: { cached_tokens: req.cache.read } } : {};
  return {
    prompt_tokens: u.input_tokens,
    completion_tokens: u.output_tokens,
    total_tokens: u.input_tokens + u.output_tokens,
    ...details,
  };
}

function openaiStream(reply: Success, req: RecordedRequest): string[] {
  const id = fakeId("chatcmpl-fake");
  const out = openaiOpening(req, id, reply.text ?? "", false);
  (reply.toolCalls ?? []).forEach((call, index) => {
    const first = {
      index,
      id: call.id ?? fakeId("call_fake"),
      type: "function",
      function: { name: call.name, arguments: "" },
    };
    out.push(openaiChunk(req, id, { tool_calls: [first] }, null));
    for (const args of fragments(toolArgs(call))) {
      out.push(openaiChunk(req, id, { tool_calls: [{ index, function: { arguments: args } }] }, null));
    }
  });
  out.push(openaiChunk(req, id, {}, stopReasonOf(reply, "openai")));
  if (req.body?.stream_options?.include_usage)
    out.push(openaiChunk(req, id, null, null, { usage: openaiUsage(reply, req) }));
  out.push("data: [DONE]\n\n");
  return out;
}

function openaiErrorBody(status: number, type?: string, message?: string): object {
  const [defType, code, defMessage] =
    OPENAI_ERRORS[status] ?? (status >= 500 ? OPENAI_ERRORS[500] : OPENAI_ERRORS[400])!;
  return { error: { message: message ?? defMessage, type: type ?? defType, param: null, code: type ? null : code } };
}

// ---- From a scripted reply to a response plan --------------------------------------------------

function errorPlan(
  provider: RecordedRequest["provider"],
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
  type?: string,
  message?: string,
): Plan {
  const shaped =
    body ??
    (provider === "anthropic" ? anthropicErrorBody(status, type, message) : openaiErrorBody(status, type, message));
  const text = typeof shaped === "string" ? shaped : JSON.stringify(shaped);
  const id: Record<string, string> =
    provider === "anthropic" ? { "request-id": fakeId("req_fake") } : { "x-request-id": fakeId("req_fake") };
  return { status, headers: { ...JSON_HEADERS, ...id, ...headers }, chunks: [text] };
}

function planFor(reply: Exclude<ScriptedReply, { hang: true }>, req: RecordedRequest): Plan {
  const anthropic = req.provider === "anthropic";
  if ("status" in reply) return errorPlan(req.provider, reply.status, reply.body, reply.headers);
  if ("raw" in reply) {
    const headers = { "content-type": reply.contentType ?? SSE_HEADERS["content-type"] };
    return {
      status: 200,
      headers,
      chunks: reply.chunkSize ? chop(new TextEncoder().encode(reply.raw), reply.chunkSize) : [reply.raw],
      chunkDelayMs: reply.chunkDelayMs,
    };
  }
  if ("cut" in reply) {
    const text = reply.text ?? "The connection drops partway through this reply.";
    const chunks = anthropic
      ? anthropicOpening(req, text, 10, true)
      : openaiOpening(req, fakeId("chatcmpl-fake"), text, true);
    return { status: 200, headers: SSE_HEADERS, chunks, cut: true };
  }
  if ("streamError" in reply) {
    const { type, message } = reply.streamError;
    const text = reply.text ?? "";
    const chunks = anthropic
      ? [
          ...anthropicOpening(req, text, 10, true),
          `event: error\ndata: ${JSON.stringify({ type: "error", error: { type, message } })}\n\n`,
        ]
      : [
          ...openaiOpening(req, fakeId("chatcmpl-fake"), text, true),
          `data: ${JSON.stringify({ error: { message, type, param: null, code: null } })}\n\n`,
        ];
    return { status: 200, headers: SSE_HEADERS, chunks };
  }
  const chunks = anthropic ? anthropicStream(reply, req) : openaiStream(reply, req);
  return {
    status: 200,
    headers: SSE_HEADERS,
    chunks,
    delayMs: reply.delayMs,
    after: reply.after,
    chunkDelayMs: reply.chunkDelayMs,
    stallAfter: reply.stallAfter,
  };
}

// ---- GET /v1/models ----------------------------------------------------------------------------

/**
 * Both APIs serve the list at the same path; the Anthropic SDK always sends `anthropic-version`,
 * the OpenAI one a bearer token, which is how the fake tells them apart. A missing or wrong key gets
 * the API's own 401, as the real endpoints do.
 */
function modelList(
  request: Request,
  options: FakeOptions,
): { provider: RecordedRequest["provider"]; response: Response } {
  const anthropic = request.headers.has("anthropic-version");
  const provider: RecordedRequest["provider"] = anthropic ? "anthropic" : "openai";
  const bearer = /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  const key = anthropic ? (request.headers.get("x-api-key") ?? bearer) : bearer;
  const models = options.models ?? DEFAULT_FAKE_MODELS;
  if (!key || (options.apiKey !== undefined && key !== options.apiKey)) {
    const message = anthropic
      ? key
        ? "invalid x-api-key"
        : "x-api-key header is required"
      : key
        ? OPENAI_ERRORS[401]![2]
        : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
    const body = anthropic
      ? anthropicErrorBody(401, "authentication_error", message)
      : openaiErrorBody(401, undefined, message);
    return { provider, response: Response.json(body, { status: 401 }) };
  }
  if (anthropic) {
    const data = models.map((m) => ({
      type: "model",
      id: m.id,
      display_name: m.displayName ?? m.id,
      created_at: new Date((m.created ?? 1_790_000_000) * 1000).toISOString(),
    }));
    const body = { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
    return { provider, response: Response.json(body, { headers: { "request-id": fakeId("req_fake") } }) };
  }
  const data = models.map((m) => ({
    id: m.id,
    object: "model",
    created: m.created ?? 1_790_000_000,
    owned_by: "fake-llm",
  }));
  return {
    provider,
    response: Response.json({ object: "list", data }, { headers: { "x-request-id": fakeId("req_fake") } }),
  };
}

// ---- The server --------------------------------------------------------------------------------

export async function startFakeLLM(script: Script, options: FakeOptions = {}): Promise<FakeLLM> {
  const requests: RecordedRequest[] = [];
  const hanging = new Set<() => void>();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let index = 0;

  // Checks waiting for something to happen (a request, a byte sent), run after each such event.
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watcher of [...watchers]) watcher();
  };
  function waitUntil<T>(ready: () => T | undefined, timeoutMs: number, failure: () => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = ready();
        if (value === undefined) return;
        stopWatching();
        resolve(value);
      };
      const timer = setTimeout(() => {
        stopWatching();
        reject(new Error(failure()));
      }, timeoutMs);
      const stopWatching = () => {
        clearTimeout(timer);
        watchers.delete(check);
      };
      watchers.add(check);
      check();
    });
  }

  const fake: FakeLLM = {
    url: "",
    requests,
    serverTimeMs: 0,
    rejected: [],
    inFlight: 0,
    maxInFlight: 0,
    stop: async () => {},
    cache: new FakePromptCache(options.now),
    waitForRequests(n, timeoutMs = WAIT_MS, which) {
      const matching = () => (which ? requests.filter(which) : requests);
      return waitUntil(
        () => (matching().length >= n ? [...matching()] : undefined),
        timeoutMs,
        () =>
          `fake-llm: waited ${timeoutMs} ms for ${n} request(s)${which ? " of the kind asked for" : ""}, ` +
          `${matching().length} came; all ${requests.length} seen:${requests.map(describeRequest).join("") || " none"}`,
      );
    },
    waitForStreamed(at, text = "", times = 1, timeoutMs = WAIT_MS) {
      const held = () =>
        text ? (requests[at]?.sent ?? "").split(text).length - 1 : Math.min(1, requests[at]?.sentBytes ?? 0);
      return waitUntil(
        () => (held() >= times ? true : undefined),
        timeoutMs,
        () =>
          `fake-llm: waited ${timeoutMs} ms for request #${at} to stream ${JSON.stringify(text || "a byte")} ${times} ` +
          `time(s); it sent ${requests[at]?.sentBytes ?? 0} bytes holding it ${held()} time(s); ` +
          `all ${requests.length} seen:${requests.map(describeRequest).join("") || " none"}`,
      ).then(() => {});
    },
  };
  const done = (req: RecordedRequest | undefined) => {
    if (!req || req.finishedAt !== undefined) return;
    req.finishedAt = preciseNow();
    req.endedAt = performance.now();
    fake.inFlight--;
  };

  /** Resolves when the client goes away or the server stops. */
  function stalled(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      const release = () => {
        hanging.delete(release);
        resolve();
      };
      hanging.add(release);
      signal?.addEventListener("abort", release, { once: true });
    });
  }

  function send(plan: Plan, started: number, req?: RecordedRequest, signal?: AbortSignal): Response {
    let i = 0;
    const finish = () => {
      fake.serverTimeMs += performance.now() - started;
      done(req);
    };
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (plan.stallAfter !== undefined && i >= plan.stallAfter) {
          await stalled(signal);
          finish();
          controller.error();
          return;
        }
        if (i > 0 && plan.chunkDelayMs) await Bun.sleep(plan.chunkDelayMs);
        if (i < plan.chunks.length) {
          const chunk = plan.chunks[i++];
          const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
          controller.enqueue(bytes);
          if (req) {
            req.sentBytes = (req.sentBytes ?? 0) + bytes!.length;
            if (options.recordBodies !== false)
              req.sent = (req.sent ?? "") + (typeof chunk === "string" ? chunk : decoder.decode(chunk));
          }
          changed();
          return;
        }
        // On a cut, let the pieces already sent reach the client first so the cut lands mid-stream;
        // error() with no reason then resets the connection without Bun logging a stack trace.
        if (plan.cut) await Bun.sleep(CUT_FLUSH_MS);
        finish();
        if (plan.cut) controller.error();
        else controller.close();
      },
      cancel: finish,
    });
    return new Response(body, { status: plan.status, headers: plan.headers });
  }

  async function handle(request: Request): Promise<Response> {
    const started = performance.now();
    const path = new URL(request.url).pathname;
    if (request.method === "GET" && path === "/v1/models") {
      const listed = modelList(request, options);
      requests.push({
        path,
        provider: listed.provider,
        headers: Object.fromEntries(request.headers),
        body: null,
        receivedAt: preciseNow(),
      });
      changed();
      return listed.response;
    }
    const provider = ENDPOINTS[path];
    if (request.method !== "POST" || !provider) {
      return Response.json(
        { type: "error", error: { type: "not_found_error", message: `fake-llm: no route ${request.method} ${path}` } },
        { status: 404 },
      );
    }
    const text = await request.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const recorded: RecordedRequest = {
      path,
      provider,
      headers: Object.fromEntries(request.headers),
      body,
      receivedAt: preciseNow(),
      arrivedAt: started,
    };
    requests.push(recorded);
    fake.inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, fake.inFlight);
    request.signal.addEventListener("abort", () => done(recorded), { once: true });
    changed();
    // Synapse always streams; a request that does not is a mistake the fake reports, not serves.
    if (body?.stream !== true) {
      const message = 'fake-llm: only streamed requests are served, and this one has no "stream": true';
      return send(errorPlan(provider, 400, undefined, {}, "invalid_request_error", message), started, recorded);
    }
    // Checked before the script is consulted: a rejected request uses up no scripted reply.
    const rejected = rejectionPlan(recorded, options.contextWindow);
    if (rejected) {
      fake.rejected.push({ request: requests.length - 1, message: rejected.message });
      if (options.recordBodies === false) recorded.body = null;
      return send(rejected.plan, started, recorded);
    }
    const n = index++;
    const reply = typeof script === "function" ? script(recorded, n) : script[n];
    if (!reply) {
      const message = `fake-llm: script exhausted (${n} replies scripted, this was request #${n + 1})`;
      fake.serverTimeMs += performance.now() - started;
      return send(
        errorPlan(provider, 500, undefined, {}, provider === "anthropic" ? "api_error" : "server_error", message),
        performance.now(),
        recorded,
      );
    }
    if ("hang" in reply) {
      // Never answers; released when the client goes away or the server stops.
      return new Promise<Response>((resolve) => {
        const release = () => {
          hanging.delete(release);
          done(recorded);
          resolve(new Response(null, { status: 499 }));
        };
        hanging.add(release);
        request.signal.addEventListener("abort", release, { once: true });
      });
    }
    // A normal reply without a scripted usage reports the cache as the API would have used it.
    if (!("status" in reply) && !("raw" in reply) && !("cut" in reply) && !("streamError" in reply) && !reply.usage) {
      const total = promptTokensOf(recorded);
      recorded.cache = provider === "anthropic" ? fake.cache.anthropic(body, total) : fake.cache.openai(body, total);
    }
    const plan = planFor(reply, recorded);
    if (options.recordBodies === false) recorded.body = null;
    if (plan.delayMs) await Bun.sleep(plan.delayMs);
    if (plan.after) await plan.after;
    return send(plan, started, recorded, request.signal);
  }

  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: handle });
  fake.url = `http://127.0.0.1:${server.port}`;
  fake.stop = async () => {
    for (const release of [...hanging]) release();
    await server.stop(true);
  };
  return fake;
}

/** Reads a script file: a reply array, or {"loop": replies} answered in a cycle forever. */
export async function loadScriptFile(path: string): Promise<Script> {
  const parsed = await Bun.file(path).json();
  if (Array.isArray(parsed)) return parsed;
  if (parsed && Array.isArray(parsed.loop) && parsed.loop.length > 0) {
    const loop: ScriptedReply[] = parsed.loop;
    return (_req, i) => loop[i % loop.length]!;
  }
  throw new Error(`${path}: expected an array of replies or {"loop": [...]}`);
}

if (import.meta.main) {
  const at = process.argv.indexOf("--script");
  const file = at > 0 ? process.argv[at + 1] : undefined;
  if (!file) {
    console.error("usage: bun tests/support/fake-llm.ts --script replies.json");
    process.exit(2);
  }
  const fake = await startFakeLLM(await loadScriptFile(file));
  console.log(fake.url);
  const shutdown = () => {
    console.error(`fake-llm: ${fake.requests.length} requests, server time ${fake.serverTimeMs.toFixed(1)} ms`);
    void fake.stop().then(() => process.exit(0));
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
