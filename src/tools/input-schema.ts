// A tool's input schema is one zod object: the tool's input type is inferred from it, the JSON
// Schema sent to the API is generated from it, and a model's call is checked against it before the
// tool runs, so a malformed call comes back to the model as one clear sentence, not a crash.

import * as z from "zod/mini";
import type { JsonSchema } from "../protocol/json-schema.ts";
import { describeValue, issuePhrases } from "../protocol/schema-issues.ts";
import type { Tool, ToolInputSchema } from "./types.ts";

export type { ToolInputOf, ToolInputSchema } from "./types.ts";

export function toolInput<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape);
}

/** A parameter's description, as the model reads it. */
export const about = (text: string) => z.describe(text);

/**
 * The JSON Schema the API gets. Generated, then trimmed of what only costs bytes in every request:
 * `$schema`, and the safe-integer bounds zod adds to every integer.
 */
export function toolJsonSchema(schema: ToolInputSchema): JsonSchema {
  const generated = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete generated.$schema;
  return JSON.parse(JSON.stringify(generated), (_key, value) => {
    if (value && typeof value === "object" && value.type === "integer") {
      if (value.minimum === Number.MIN_SAFE_INTEGER) delete value.minimum;
      if (value.maximum === Number.MAX_SAFE_INTEGER) delete value.maximum;
    }
    return value;
  }) as JsonSchema;
}

export type InputCheck<I> = { ok: true; value: I } | { ok: false; message: string };

/** Checks a call's input; the message names every problem (callers add which tool). */
export function checkToolInput<S extends ToolInputSchema>(schema: S, input: unknown): InputCheck<z.infer<S>> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, message: `expected an object with parameters, got ${describeValue(input)}.` };
  }
  // Models send an explicit null for an optional parameter they mean to leave out (a name that is
  // no parameter is still refused, null or not).
  const kept = Object.entries(input).filter(([key, value]) => value !== null || !Object.hasOwn(schema.shape, key));
  const given = Object.fromEntries(kept);
  const result = z.safeParse(schema, given);
  if (result.success) return { ok: true, value: result.data };
  const unknownKey = (name: string) => `${name} is not a parameter of this tool`;
  const phrases = issuePhrases(result.error.issues, given, { schema, unknownKey });
  return { ok: false, message: `${phrases.join("; ")}. Parameters: ${Object.keys(schema.shape).join(", ")}.` };
}

/**
 * A tool whose input type and JSON Schema both come from its one schema. Given as a function, the
 * schema is built on first use (the first call's check). The binary sends the built-in tools' JSON
 * Schemas build.ts generated (prebuilt-schemas.ts), so a run that calls no tool builds none.
 */
export function defineTool<S extends ToolInputSchema>(
  tool: Omit<Tool<S>, "inputSchema" | "input"> & { input: S | (() => S) },
): Tool<S> {
  const { input, ...rest } = tool;
  let built: S | undefined = typeof input === "function" ? undefined : input;
  const schema = (): S => {
    built ??= (input as () => S)();
    return built;
  };
  let jsonSchema: JsonSchema | undefined;
  const inputSchema = (): JsonSchema => {
    jsonSchema ??= toolJsonSchema(schema());
    return jsonSchema;
  };
  return Object.defineProperties({ ...rest } as Tool<S>, {
    input: { get: schema, enumerable: true },
    inputSchema: { get: inputSchema, enumerable: true },
  });
}
