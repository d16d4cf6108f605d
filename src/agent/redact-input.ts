// A tool call's input with secret values redacted from every string in it, before it leaves the
// process as an event (a sub-agent's row shows its current call): pure.

import { redactSecrets } from "../policy/secret-redaction.ts";

/** A copy of `input` with each string redacted; nesting is bounded so a hostile input cannot recurse deeply. */
export function redactInput(input: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof input === "string") return redactSecrets(input, secrets);
  if (!input || typeof input !== "object" || !secrets.length) return input;
  if (depth > 8) return "[…]";
  if (Array.isArray(input)) return input.map((v) => redactInput(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) out[redactSecrets(k, secrets)] = redactInput(v, secrets, depth + 1);
  return out;
}
