// The one cheap, real request `synapse doctor` makes to prove the provider answers: GET /v1/models
// through the same SDK, base URL and key a run uses, reporting the URL and exactly what went wrong
// (HTTP status, refused connection, silence). Unlike model-list.ts (for /model), it never falls back.

import type { Config } from "../config/config.ts";
import { ProviderError } from "../protocol/errors.ts";
import { ANTHROPIC_DEFAULT_BASE_URL, loadAnthropicSdk } from "./anthropic.ts";
import { toProviderError } from "./llm-error.ts";
import { OPENAI_DEFAULT_BASE_URL } from "./openai.ts";
import { PLACEHOLDER_API_KEY, type ProviderName, resolveSelection } from "./select.ts";

export interface ProbeResult {
  provider: ProviderName;
  model: string;
  /** The URL asked, so a wrong base URL shows in the report. */
  url: string;
  modelCount: number;
  /** Whether the configured model is among those listed (local servers may not list aliases). */
  modelListed: boolean;
}

/** A probe reads one page at most: it checks the endpoint, it is not an inventory. */
const PAGE = 100;

/** Where the SDKs send the request: Anthropic's base URL has no /v1, OpenAI's ends with it. */
export function probeUrl(provider: ProviderName, baseUrl: string | undefined): string {
  if (provider === "anthropic") return `${(baseUrl || ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, "")}/v1/models`;
  return `${(baseUrl || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, "")}/models`;
}

/** Throws ProviderError whose message starts with `GET <url>:` and says what went wrong. */
export async function probeProvider(config: Config, signal: AbortSignal): Promise<ProbeResult> {
  const { provider, model } = resolveSelection(config);
  const endpoint = provider === "anthropic" ? config.anthropic : config.openai;
  const url = probeUrl(provider, endpoint.baseUrl);
  const label = `GET ${url}`;
  const ids: string[] = [];
  if (provider === "anthropic") {
    const [sdk, { Models }] = await Promise.all([loadAnthropicSdk(), import("@anthropic-ai/sdk/resources/models")]);
    try {
      const client = new sdk.BaseAnthropic({
        apiKey: endpoint.apiKey ?? PLACEHOLDER_API_KEY,
        baseURL: endpoint.baseUrl || ANTHROPIC_DEFAULT_BASE_URL,
        maxRetries: 0,
      });
      const page = await new Models(client).list({ limit: PAGE }, { signal });
      for (const m of page.data) ids.push(m.id);
    } catch (err) {
      throw withUrl(toProviderError(err, sdk, label, signal), label, signal);
    }
  } else {
    const sdk = await import("openai");
    try {
      const client = new sdk.OpenAI({
        apiKey: endpoint.apiKey ?? PLACEHOLDER_API_KEY,
        baseURL: endpoint.baseUrl || OPENAI_DEFAULT_BASE_URL,
        // null keeps the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID behind the config's back.
        organization: null,
        project: null,
        maxRetries: 0,
      });
      const page = await client.models.list({ signal });
      for (const m of page.data) ids.push(m.id);
    } catch (err) {
      throw withUrl(toProviderError(err, sdk, label, signal), label, signal);
    }
  }
  return { provider, model, url, modelCount: ids.length, modelListed: ids.includes(model) };
}

/** An HTTP error from the SDK carries only the status and the API's words: add the URL asked. */
function withUrl(err: Error, label: string, signal: AbortSignal): Error {
  if (signal.aborted && (signal.reason as Error | undefined)?.name === "TimeoutError") {
    return new ProviderError(`${label}: no answer in time`, undefined, true);
  }
  if (!(err instanceof ProviderError)) return err;
  // The label names the URL already; the transport error's own " to <url>" would repeat it.
  const message = err.message.replace(/ to https?:\/\/\S+/, "");
  if (message.startsWith(label)) return new ProviderError(message, err.status, err.retryable);
  return new ProviderError(`${label}: ${message}`, err.status, err.retryable);
}
