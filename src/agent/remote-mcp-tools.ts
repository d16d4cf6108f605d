// A sub-agent's MCP tools: the session's MCP servers live in the main thread, so inside a worker
// each tool is a stand-in that sends the call over the task's port and waits for its text. The
// worker's own permission gate has judged the call first, under the session's rules.

import type { MessagePort } from "node:worker_threads";
import * as z from "zod/mini";
import { ToolError, type Tool } from "../tools/types.ts";
import type { ToolInputSchema } from "../tools/input-schema.ts";
import { type FromWorker, type McpToolSpec, readToWorker } from "./sub-agent-protocol.ts";

type Post = (m: FromWorker) => void;

export function remoteMcpTools(specs: McpToolSpec[], post: Post, port: MessagePort): Array<[string, Tool]> {
  if (!specs.length) return [];
  let next = 0;
  type Done = { text: string; isError: boolean; facts?: Record<string, unknown> };
  const pending = new Map<number, { resolve(r: Done): void; reject(e: Error): void }>();
  port.on("message", (raw: unknown) => {
    let m: ReturnType<typeof readToWorker>;
    try {
      m = readToWorker(raw);
    } catch {
      return; // the shell's listener fails what it answers; an MCP answer that is malformed never resolves
    }
    if (m.t !== "mcp-done" && m.t !== "mcp-error") return;
    const waiter = pending.get(m.id);
    if (!waiter) return;
    pending.delete(m.id);
    if (m.t === "mcp-done") waiter.resolve(m);
    else waiter.reject(new Error(m.message));
  });
  return specs.map((spec) => {
    const names = Object.keys(spec.inputSchema.properties ?? {});
    // The server checks the values; an explicit null for a named parameter is dropped, as for any tool.
    const shape = Object.fromEntries(names.map((n) => [n, z.optional(z.unknown())]));
    const input = z.looseObject(shape) as unknown as ToolInputSchema;
    const tool: Tool = {
      name: spec.name,
      description: spec.description,
      input,
      inputSchema: spec.inputSchema,
      readOnly: spec.readOnly,
      execute: (args, ctx) => {
        const id = next++;
        return new Promise((resolve, reject) => {
          pending.set(id, {
            resolve: (r) =>
              resolve({
                content: r.text,
                ...(r.isError ? { isError: true } : {}),
                ...(r.facts ? { hookResponse: r.facts } : {}),
              }),
            reject: (e) => reject(new ToolError(e.message)),
          });
          ctx.signal.addEventListener("abort", () => post({ t: "mcp-abort", id }), { once: true });
          post({ t: "mcp", id, name: spec.name, input: args as Record<string, unknown> });
        });
      },
    };
    return [spec.name, tool];
  });
}
