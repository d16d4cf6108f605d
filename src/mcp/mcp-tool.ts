// An MCP server's tool as one of synapse's tools: the model-facing name and the server's schema,
// checked and permitted like any other call (agent/tool-call.ts), run on the server, and its
// result shaped by tool-result.ts. A server that fails gives an is_error result, never a throw
// that could end the run.

import { errorMessage } from "../protocol/errors.ts";
import { ToolError, type Tool } from "../tools/types.ts";
import type { McpConnection, ServerTool } from "./connection.ts";
import { apiInputSchema, passThroughInput } from "./tool-schema.ts";
import { mcpToolResult } from "./tool-result.ts";

export interface McpToolLimits {
  /** SYNAPSE_MAX_MCP_OUTPUT_TOKENS: about four characters a token. */
  maxOutputTokens: number;
}

/** Descriptions are sent with every request: a runaway one is cut. */
const MAX_DESCRIPTION = 2048;

export function mcpTool(name: string, server: McpConnection, tool: ServerTool, limits: McpToolLimits): Tool {
  const inputSchema = apiInputSchema(tool.inputSchema);
  const about = (tool.description ?? tool.annotations?.title ?? "").slice(0, MAX_DESCRIPTION);
  return {
    name,
    description: `${about}${about ? "\n\n" : ""}(MCP tool "${tool.name}" of the server "${server.name}")`,
    input: passThroughInput(inputSchema),
    inputSchema,
    readOnly: tool.annotations?.readOnlyHint === true,
    async execute(input, ctx) {
      let result: Record<string, unknown>;
      try {
        result = await server.call(tool.name, input as Record<string, unknown>, ctx.signal);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw new ToolError(errorMessage(err));
      }
      return mcpToolResult(result, {
        maxChars: limits.maxOutputTokens * 4,
        limitName: `SYNAPSE_MAX_MCP_OUTPUT_TOKENS=${limits.maxOutputTokens}`,
        maxImageBytes: ctx.limits.maxImageBytes,
        saveImage: ctx.services.saveImage,
      });
    },
  };
}
