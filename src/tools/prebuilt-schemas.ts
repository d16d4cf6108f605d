// The built-in tools' JSON Schemas. In the compiled binary build.ts replaces this module with the
// values it generated from the tools' zod schemas, so a run neither spends ~15 ms of CPU generating
// them again nor loads the tools' code to send its first request. Run from source (tests, Deno),
// this module loads the tools' code and generates each schema on first use.

import type { JsonSchema } from "../protocol/json-schema.ts";
import { TOOL_CODE } from "./tool-code.ts";

/** The JSON Schema the API gets for the built-in tool `name`. */
export function builtInSchema(name: string): JsonSchema {
  const tool = TOOL_CODE.find((t) => t.name === name);
  if (!tool) throw new Error(`no built-in tool is named ${name}`);
  return tool.inputSchema;
}
