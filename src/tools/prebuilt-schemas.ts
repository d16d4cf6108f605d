// The tools' JSON Schemas as generated at build time: build.ts replaces this module in the compiled
// binary with their values, so a run does not spend ~15 ms of CPU generating them again at every
// start. From source there are none, and each tool's is generated from its zod schema when defined.

import type { JsonSchema } from "../protocol/json-schema.ts";

export const prebuiltSchemas: Readonly<Record<string, JsonSchema>> | undefined = undefined;
