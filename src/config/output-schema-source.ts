// Where the JSON Schema a run's final answer must match comes from: `--json-schema '<json>'`
// (Claude Code), `--output-schema <file>` (Codex) or the Agent SDK's `outputFormat`. Only named
// here; agent/structured-output.ts reads the file once, at start, and checks the schema.

import { resolve as resolvePath } from "node:path";
import { UsageError } from "../protocol/errors.ts";

export type OutputSchemaSource =
  | { origin: "--json-schema"; text: string }
  /** An absolute path (a relative one is taken from where synapse was started, never searched for). */
  | { origin: "--output-schema"; path: string }
  /** A schema already parsed by a program driving synapse (the Agent SDK's `outputFormat.schema`). */
  | { origin: "outputFormat"; schema: unknown };

/** The source the two flags name, if any; both at once, or an empty value, is a usage error. */
export function outputSchemaSource(
  flags: { jsonSchema?: string; outputSchema?: string },
  processCwd: string,
): OutputSchemaSource | undefined {
  const { jsonSchema, outputSchema } = flags;
  if (jsonSchema !== undefined && outputSchema !== undefined)
    throw new UsageError("--json-schema and --output-schema cannot be used together");
  if (jsonSchema !== undefined) {
    if (!jsonSchema.trim()) throw new UsageError("--json-schema needs a JSON Schema (JSON text)");
    return { origin: "--json-schema", text: jsonSchema };
  }
  if (outputSchema !== undefined) {
    if (!outputSchema.trim()) throw new UsageError("--output-schema needs the path of a JSON Schema file");
    return { origin: "--output-schema", path: resolvePath(processCwd, outputSchema) };
  }
  return undefined;
}
