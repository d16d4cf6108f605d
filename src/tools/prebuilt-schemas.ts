// The built-in tools' JSON Schemas. In the compiled binary build.ts replaces this module with the
// values it generated from the tools' zod schemas, so a run neither spends ~15 ms of CPU generating
// them again nor loads the tools' code to send its first request. From source each is generated on
// first use from its tool's code, loaded synchronously here (a `require` the binary never contains).

import type { JsonSchema } from "../protocol/json-schema.ts";

const generated = new Map<string, JsonSchema>();

/** The JSON Schema the API gets for the built-in tool `name`. */
export function builtInSchema(name: string): JsonSchema {
  let schema = generated.get(name);
  if (!schema) {
    const { TOOL_CODE } = require("./tool-code.ts") as typeof import("./tool-code.ts");
    const tool = TOOL_CODE.find((t) => t.name === name);
    if (!tool) throw new Error(`no built-in tool is named ${name}`);
    schema = tool.inputSchema;
    generated.set(name, schema);
  }
  return schema;
}
