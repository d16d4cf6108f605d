// JSON in one spelling per value: object keys sorted at every level, so two values with the same
// content give the same text whatever order their keys came in (a loop's repeated tool input, an
// approved MCP entry rewritten by an editor).

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    const item = (k: string) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`;
    return `{${keys.map(item).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
