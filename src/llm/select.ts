// Picks the provider and model from the resolved config: `provider/model`, a bare model name, or
// whichever API is configured. Synchronous; the chosen provider loads its SDK on first use.

import type { Config } from "../config/config.ts";
import { UsageError } from "../protocol/errors.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { OpenAIProvider } from "./openai.ts";
import type { Provider } from "./types.ts";

export type ProviderName = Provider["name"];

export const DEFAULT_MODELS: Record<ProviderName, string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-5.4",
};

/** Local OpenAI-compatible servers ignore the key, but the SDK refuses to start without one. */
export const PLACEHOLDER_API_KEY = "synapse-no-key";

export interface Selection {
  provider: ProviderName;
  model: string;
}

const NOTHING_CONFIGURED =
  "no model provider configured: set ANTHROPIC_API_KEY, or OPENAI_API_KEY (or OPENAI_BASE_URL for an " +
  "OpenAI-compatible server such as Ollama); optionally pick the model with SYNAPSE_MODEL or --model " +
  "(e.g. anthropic/claude-sonnet-5-5, openai/gpt-5.4)";

function configured(config: Pick<Config, "anthropic" | "openai">): Record<ProviderName, boolean> {
  return {
    anthropic: Boolean(config.anthropic.apiKey),
    // A base URL alone is enough: local compatible servers take no key.
    openai: Boolean(config.openai.apiKey || config.openai.baseUrl),
  };
}

/** Which provider a bare model name belongs to, when its name says so. */
function providerOfModel(model: string): ProviderName | undefined {
  if (/^claude/i.test(model)) return "anthropic";
  if (/^(gpt|chatgpt|o1|o3|o4)/i.test(model)) return "openai";
  return undefined;
}

function missingKey(provider: ProviderName, model: string): UsageError {
  const hint = provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY (or OPENAI_BASE_URL)";
  return new UsageError(`model ${provider}/${model} needs ${hint} to be set`);
}

/** The pure decision, table-tested: which provider and model this configuration asks for. */
export function resolveSelection(config: Pick<Config, "model" | "anthropic" | "openai">): Selection {
  const ready = configured(config);
  const spec = config.model?.trim() ?? "";

  if (spec) {
    // Only these two prefixes name a provider: local model names often contain "/" themselves.
    const slash = spec.indexOf("/");
    const prefix = slash > 0 ? spec.slice(0, slash).toLowerCase() : "";
    if (prefix === "anthropic" || prefix === "openai") {
      const model = spec.slice(slash + 1).trim() || DEFAULT_MODELS[prefix];
      if (!ready[prefix]) throw missingKey(prefix, model);
      return { provider: prefix, model };
    }
    const named = providerOfModel(spec);
    if (named) {
      if (!ready[named]) throw missingKey(named, spec);
      return { provider: named, model: spec };
    }
    // An unknown name most likely belongs to a local OpenAI-compatible server, if one is set.
    if (ready.openai && (config.openai.baseUrl || !ready.anthropic)) return { provider: "openai", model: spec };
    if (ready.anthropic) return { provider: "anthropic", model: spec };
    throw new UsageError(NOTHING_CONFIGURED);
  }

  if (ready.anthropic) return { provider: "anthropic", model: DEFAULT_MODELS.anthropic };
  if (ready.openai) return { provider: "openai", model: DEFAULT_MODELS.openai };
  throw new UsageError(NOTHING_CONFIGURED);
}

export function selectProvider(config: Config): Provider {
  const { provider, model } = resolveSelection(config);
  if (provider === "anthropic") {
    return new AnthropicProvider({
      apiKey: config.anthropic.apiKey ?? PLACEHOLDER_API_KEY,
      baseUrl: config.anthropic.baseUrl,
      model,
    });
  }
  return new OpenAIProvider({
    apiKey: config.openai.apiKey ?? PLACEHOLDER_API_KEY,
    baseUrl: config.openai.baseUrl,
    model,
  });
}
