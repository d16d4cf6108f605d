// The environment every command the agent runs starts with: synapse's own, minus the secrets.
// A command's output goes back to the model (and into messages.jsonl), so a provider key visible
// to `env` would leak to the provider and to disk; a prompt-injected model could also send it away.

import { nameMatcher } from "./name-patterns.ts";

/** Variables the config reads as credentials: never passed to a command. */
export const SECRET_ENV_NAMES: readonly string[] = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

/** SYNAPSE_HIDE_ENV: more names to hide, comma- or space-separated; `NAME_*` hides a prefix. */
export function hiddenEnvNames(extra: string | undefined): string[] {
  const more = (extra ?? "").split(/[\s,]+/).filter(Boolean);
  return [...SECRET_ENV_NAMES, ...more];
}

/** A copy of `env` without the hidden names (and without unset values). */
export function commandEnvironment(
  env: Record<string, string | undefined>,
  hidden: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  const isHidden = nameMatcher(hidden);
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !isHidden(name)) out[name] = value;
  }
  return out;
}

/**
 * Startup files a non-interactive bash (BASH_ENV) or sh (ENV) sources before anything else: the
 * pooled shells and the watchdog are such shells, so a hook there would run inside every one of
 * them, ahead of the pool's own setup. Commands start without them.
 */
export const SHELL_HOOK_ENV_NAMES: readonly string[] = ["BASH_ENV", "ENV"];

/** A copy of `env` without the shell startup hooks. */
export function withoutShellHooks(env: Record<string, string>): Record<string, string> {
  const out = { ...env };
  for (const name of SHELL_HOOK_ENV_NAMES) delete out[name];
  return out;
}

/** Names of the variables of `env` that `hidden` keeps out (those actually set). */
export function hiddenNamesPresent(env: Record<string, string | undefined>, hidden: readonly string[]): string[] {
  const isHidden = nameMatcher(hidden);
  return Object.keys(env).filter((name) => env[name] && isHidden(name));
}
