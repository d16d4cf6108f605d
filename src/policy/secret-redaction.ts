// Secret values kept out of everything that leaves the process: tool output, files, logs, events.

/** Every known secret value replaced, longest first, so no key reaches the model, a file or a log. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) {
    if (s.length >= 8 && out.includes(s)) out = out.split(s).join("[redacted]");
  }
  return out;
}

/** An event with secret values redacted from the text that reports errors (warnings, retries, results). */
export function redactEvent<E extends { type: string }>(event: E, secrets: readonly string[]): E {
  if (!secrets.length) return event;
  // The policy layer may not import the agent's event types: it reads only the text fields it redacts.
  const e = event as E & { message?: unknown; reason?: unknown; result?: { result?: unknown; error?: unknown } };
  const clean = (v: unknown) => (typeof v === "string" ? redactSecrets(v, secrets) : v);
  if (e.type === "warning") return { ...e, message: clean(e.message) };
  if (e.type === "turn_retry") return { ...e, reason: clean(e.reason) };
  if (e.type === "result" && e.result) {
    const result = { ...e.result, result: clean(e.result.result) };
    if (typeof e.result.error === "string") result.error = clean(e.result.error);
    return { ...e, result };
  }
  return event;
}
