// The environment a sandboxed shell starts with: an allow-list, not synapse's environment minus a
// deny-list, so a key under a name nobody thought of (a CI token, a cloud credential) stays out.

import { nameMatcher } from "../config/name-patterns.ts";

/** Names passed through when set; `LC_*` stands for every locale variable. */
export const SANDBOX_ENV_ALLOW: readonly string[] = [
  "PATH",
  "HOME",
  "LANG",
  "LANGUAGE",
  "LC_*",
  "TERM",
  "USER",
  "LOGNAME",
  "SHELL",
  "TZ",
];

const allowed = nameMatcher(SANDBOX_ENV_ALLOW);

/**
 * `env` cut down to the allow-list, minus anything `hidden` names (a user who hides `PATH`-like
 * names on purpose wins). TMPDIR is the sandbox's private /tmp: a host TMPDIR is read-only inside.
 */
export function sandboxEnvironment(
  env: Readonly<Record<string, string>>,
  hidden: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  const isHidden = nameMatcher(hidden);
  for (const [name, value] of Object.entries(env)) {
    if (allowed(name) && !isHidden(name)) out[name] = value;
  }
  out.TMPDIR = "/tmp";
  return out;
}
