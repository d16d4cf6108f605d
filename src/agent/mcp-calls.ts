// The main thread's side of a sub-agent's MCP calls: which of the session's MCP tools a task is
// offered, and one call run here, where the servers are, its result sent back as text (a worker's
// transcript has no access to the session's image store). The worker's gate judged it already.

import type { Config } from "../config/config.ts";
import { errorMessage } from "../protocol/errors.ts";
import type { ImageBlock, TextBlock } from "../protocol/message.ts";
import { type Tool, toolLimits } from "../tools/types.ts";
import type { McpToolSpec, ToWorker } from "./sub-agent-protocol.ts";

export function mcpToolsFor(all: ReadonlyMap<string, Tool> | undefined, readOnlyOnly: boolean): Map<string, Tool> {
  return new Map([...(all ?? new Map<string, Tool>())].filter(([, t]) => !readOnlyOnly || t.readOnly));
}

export function mcpSpecs(tools: ReadonlyMap<string, Tool>): McpToolSpec[] {
  return [...tools.values()].map((t): McpToolSpec => {
    const { name, description, inputSchema, readOnly } = t;
    return { name, description, inputSchema, readOnly };
  });
}

interface CallContext {
  config: Config;
  taskId: string;
  signal: AbortSignal;
  /** The task's calls in flight, so the task's end (or the worker's abort) stops them. */
  calls: Map<number, AbortController>;
}

export function runMcpCall(
  offered: ReadonlyMap<string, Tool>,
  m: { id: number; name: string; input: Record<string, unknown> },
  ctx: CallContext,
  reply: (m: ToWorker) => void,
): void {
  // Only what this task was offered: an explore task cannot reach a tool it was not given.
  const tool = offered.get(m.name);
  if (!tool) {
    reply({ t: "mcp-error", id: m.id, message: `${m.name} is not available to this task` });
    return;
  }
  const controller = new AbortController();
  ctx.calls.set(m.id, controller);
  const signal = AbortSignal.any([ctx.signal, controller.signal]);
  const limits = toolLimits(ctx.config);
  tool
    .execute(m.input, { cwd: ctx.config.cwd, signal, taskId: ctx.taskId, limits, progress: () => {}, services: {} })
    .then(
      (result) => {
        const { content } = result;
        const asText = (b: TextBlock | ImageBlock) => (b.type === "text" ? b.text : "[image]");
        const parts = typeof content === "string" ? [content] : content.map(asText);
        const text = parts.join("\n");
        const facts = result.hookResponse as Record<string, unknown> | undefined;
        reply({ t: "mcp-done", id: m.id, text, isError: result.isError === true, ...(facts ? { facts } : {}) });
      },
      (err) => reply({ t: "mcp-error", id: m.id, message: errorMessage(err) }),
    )
    .finally(() => ctx.calls.delete(m.id));
}
