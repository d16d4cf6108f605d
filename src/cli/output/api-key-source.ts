// init's `apiKeySource`, as Claude Code reports it: the name of the environment variable the
// provider's key came from (`ANTHROPIC_API_KEY`), or `none` (a local server that needs no key).
// Only whether a key is set is read here; the key itself never reaches a line of output.

import type { Config } from "../../config/config.ts";

const KEY_VARIABLE = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY" } as const;

export function apiKeySource(config: Pick<Config, "anthropic" | "openai">, provider: string): string {
  if (provider === "anthropic" || provider === "openai")
    return config[provider].apiKey ? KEY_VARIABLE[provider] : "none";
  return "none";
}
