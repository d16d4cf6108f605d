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
  const e = event as any;
  if (e.type === "warning") return { ...e, message: redactSecrets(e.message, secrets) };
  if (e.type === "turn_retry") return { ...e, reason: redactSecrets(e.reason, secrets) };
  if (e.type === "result") {
    const result = { ...e.result, result: redactSecrets(e.result.result, secrets) };
    if (typeof e.result.error === "string") result.error = redactSecrets(e.result.error, secrets);
    return { ...e, result };
  }
  return event;
}
