// The environment every command the agent runs starts with: synapse's own, minus the secrets.
// A command's output goes back to the model (and into messages.jsonl), so a provider key visible
// to `env` would leak to the provider and to disk; a prompt-injected model could also send it away.

/** Variables the config reads as credentials: never passed to a command. */
export const SECRET_ENV_NAMES: readonly string[] = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

/** SYNAPSE_HIDE_ENV: more names to hide, comma- or space-separated; `NAME_*` hides a prefix. */
export function hiddenEnvNames(extra: string | undefined): string[] {
  const more = (extra ?? "").split(/[\s,]+/).filter(Boolean);
  return [...SECRET_ENV_NAMES, ...more];
}

function matches(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith("*") ? name.startsWith(p.slice(0, -1)) : name === p));
}

/** A copy of `env` without the hidden names (and without unset values). */
export function commandEnvironment(env: Record<string, string | undefined>, hidden: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !matches(name, hidden)) out[name] = value;
  }
  return out;
}

/** Names of the variables of `env` that `hidden` keeps out (those actually set). */
export function hiddenNamesPresent(env: Record<string, string | undefined>, hidden: readonly string[]): string[] {
  return Object.keys(env).filter((name) => env[name] && matches(name, hidden));
}
