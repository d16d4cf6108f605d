// An MCP tool's JSON Schema, passed to the API as the server wrote it but made acceptable to both
// APIs: the top level must be `type: "object"` with a `properties` object (Anthropic refuses
// anything else, OpenAI a top-level combinator), and `$schema`/`$id` only cost bytes.

import * as z from "zod/mini";
import type { JsonSchema } from "../protocol/json-schema.ts";
import type { ToolInputSchema } from "../tools/input-schema.ts";

const TOP_LEVEL_REFUSED = ["$schema", "$id", "oneOf", "anyOf", "allOf", "not", "enum", "const"];

export function apiInputSchema(schema: unknown): JsonSchema {
  const isObject = schema && typeof schema === "object" && !Array.isArray(schema);
  const source = isObject ? (schema as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { ...source, type: "object" };
  for (const key of TOP_LEVEL_REFUSED) delete out[key];
  const props = out.properties;
  if (!props || typeof props !== "object" || Array.isArray(props)) out.properties = {};
  const names = Array.isArray(out.required) && out.required.every((r) => typeof r === "string");
  if (out.required !== undefined && !names) delete out.required;
  return out as unknown as JsonSchema;
}

/**
 * The check synapse makes before a call goes to the server: an object, nothing more. The server
 * checks the values against its own schema and its error comes back as the result. Named
 * parameters are listed so that an explicit null for one is dropped like for the built-in tools.
 */
export function passThroughInput(schema: JsonSchema): ToolInputSchema {
  const names = Object.keys((schema as { properties?: Record<string, unknown> }).properties ?? {});
  const shape = Object.fromEntries(names.map((name) => [name, z.optional(z.unknown())]));
  return z.looseObject(shape) as unknown as ToolInputSchema;
}
