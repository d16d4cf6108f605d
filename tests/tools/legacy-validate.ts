// The hand-written validator src/tools/schema.ts was until zod schemas replaced it (as of commit
// 93eb296), kept only as the reference of tests/tools/input-schema-differential.test.ts.

import { headUnits } from "../../src/text/code-point.ts";
import type { JsonSchema } from "../../src/protocol/json-schema.ts";

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${headUnits(value, 40)}…` : value)}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    default:
      // A type outside the subset is not ours to judge.
      return true;
  }
}

const article = (type: string) => (/^[aeiou]/.test(type) ? "an" : "a");

/** Returns null when the input fits, else a message naming every problem (callers add which tool). */
export function validateInput(schema: JsonSchema, input: unknown): string | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return `expected an object with parameters, got ${describe(input)}.`;
  }
  const record = input as Record<string, unknown>;
  const problems: string[] = [];
  for (const name of schema.required ?? []) {
    if (record[name] === undefined || record[name] === null) problems.push(`"${name}" is required`);
  }
  for (const [name, value] of Object.entries(record)) {
    const prop = schema.properties[name];
    if (!prop) {
      if (schema.additionalProperties === false) problems.push(`"${name}" is not a parameter of this tool`);
      continue;
    }
    // An explicit null for an optional parameter means "not given".
    if (value === undefined || value === null) continue;
    if (!hasType(value, prop.type)) {
      problems.push(`"${name}" must be ${article(prop.type)} ${prop.type}, got ${describe(value)}`);
      continue;
    }
    if (prop.enum && !prop.enum.includes(value as string)) {
      problems.push(
        `"${name}" must be one of ${prop.enum.map((e) => JSON.stringify(e)).join(", ")}, got ${describe(value)}`,
      );
    }
    const itemType = (prop.items as { type?: string } | undefined)?.type;
    if (prop.type === "array" && itemType) {
      const bad = (value as unknown[]).findIndex((item) => !hasType(item, itemType));
      if (bad >= 0)
        problems.push(
          `"${name}[${bad}]" must be ${article(itemType)} ${itemType}, got ${describe((value as unknown[])[bad])}`,
        );
    }
  }
  if (problems.length === 0) return null;
  const props = Object.keys(schema.properties).join(", ");
  return `${problems.join("; ")}. Parameters: ${props}.`;
}
