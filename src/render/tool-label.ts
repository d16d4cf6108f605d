// One-line labels for tool activity, e.g. `Bash(npm test)` or `Read(src/app.ts)`: pure.

const PRIMARY_FIELD: Record<string, string> = {
  Bash: "command",
  Read: "path",
  Write: "path",
  Edit: "path",
  Glob: "pattern",
  Grep: "pattern",
};

export function truncateOneLine(text: string, limit: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return flat.length > limit ? `${flat.slice(0, Math.max(1, limit - 1))}…` : flat;
}

export function toolLabel(name: string, input: unknown, limit: number): string {
  const field = PRIMARY_FIELD[name];
  const record = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  const value = field ? record[field] : undefined;
  const arg = typeof value === "string" ? value : Object.keys(record).length ? JSON.stringify(record) : "";
  return `${name}(${truncateOneLine(arg, limit)})`;
}
