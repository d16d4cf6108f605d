// Parses the JSON arguments a model streamed for a tool call. Models sometimes send broken JSON;
// that must reach the agent as data (so it can answer with an is_error tool result), not as a throw.

/** The key under which unparseable arguments are handed on, raw. */
export const INVALID_JSON_KEY = "__invalid_json";

export function parseToolInput(raw: string): Record<string, unknown> {
  // Anthropic sends "" for a tool with no parameters; some OpenAI-compatible servers do too.
  if (raw.trim() === "") return {};
  try {
    const value = JSON.parse(raw);
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // Fall through: the raw text is kept for the error message the agent sends back.
  }
  return { [INVALID_JSON_KEY]: raw };
}

/** The raw text of a tool input that failed to parse, if it did. */
export function invalidToolInput(input: unknown): string | undefined {
  if (input && typeof input === "object" && INVALID_JSON_KEY in input) {
    const raw = (input as Record<string, unknown>)[INVALID_JSON_KEY];
    return typeof raw === "string" ? raw : undefined;
  }
  return undefined;
}
