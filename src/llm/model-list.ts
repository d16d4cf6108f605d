// The models a provider offers, from its models endpoint (GET /v1/models), with a short built-in
// list when the endpoint cannot be reached, so `/model` still shows something useful offline.

import type { ProviderEndpoint } from "../config/config.ts";
import { errorMessage } from "../protocol/errors.ts";
import { PLACEHOLDER_API_KEY, type ProviderName } from "./select.ts";

export interface ModelList {
  models: string[];
  /** "provider": the endpoint answered; "fallback": the built-in list (reason says why). */
  source: "provider" | "fallback";
  reason?: string;
}

export const FALLBACK_MODELS: Record<ProviderName, readonly string[]> = {
  anthropic: ["claude-opus-5-1", "claude-sonnet-5-5", "claude-haiku-5-1"],
  openai: ["gpt-5.4", "gpt-5.4-mini", "gpt-5.4-nano"],
};

const DEFAULT_BASE: Record<ProviderName, string> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
};

/** Where the list lives: Anthropic's base URL has no /v1, OpenAI-compatible ones end with it. */
export function modelsUrl(provider: ProviderName, baseUrl: string | undefined): string {
  const base = (baseUrl || DEFAULT_BASE[provider]).replace(/\/+$/, "");
  return provider === "anthropic" ? `${base}/v1/models?limit=100` : `${base}/models`;
}

export async function listModels(
  provider: ProviderName,
  endpoint: ProviderEndpoint,
  signal: AbortSignal,
): Promise<ModelList> {
  // The key a run sends, the placeholder included (a local server with no key configured is asked
  // as the runs ask it; one that wants some bearer would refuse a request without any).
  const key = endpoint.apiKey ?? PLACEHOLDER_API_KEY;
  const headers: Record<string, string> =
    provider === "anthropic"
      ? { "x-api-key": key, "anthropic-version": "2023-06-01" }
      : { authorization: `Bearer ${key}` };
  // A slow endpoint must not hold the prompt: the fallback list is good enough after 5 s.
  const timeout = AbortSignal.timeout(5000);
  try {
    const res = await fetch(modelsUrl(provider, endpoint.baseUrl), {
      headers,
      signal: AbortSignal.any([signal, timeout]),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return fallback(provider, `the models endpoint answered ${res.status}`);
    }
    const body = (await res.json()) as { data?: { id?: unknown }[] };
    const models = (body.data ?? [])
      .map((m) => m.id)
      .filter((id): id is string => typeof id === "string" && id.length > 0);
    if (!models.length) return fallback(provider, "the models endpoint listed no models");
    return { models, source: "provider" };
  } catch (err) {
    if (signal.aborted) throw err;
    return fallback(provider, `the models endpoint could not be reached (${errorMessage(err)})`);
  }
}

function fallback(provider: ProviderName, reason: string): ModelList {
  return { models: [...FALLBACK_MODELS[provider]], source: "fallback", reason };
}
