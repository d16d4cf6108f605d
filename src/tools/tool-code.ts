// The built-in tools' code: their implementations, and the zod schemas that check their input.
// Only a tool call loads this module (registry.ts), so none of it is on a run's way to its first
// request, which needs each tool's name, description and JSON Schema only.

import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { readTool } from "./read.ts";
import type { Tool } from "./types.ts";
import { writeTool } from "./write.ts";

/** In the order the request lists them (registry.ts's ALL_TOOLS). */
export const TOOL_CODE: readonly Tool[] = [bashTool, readTool, writeTool, editTool, globTool, grepTool];
