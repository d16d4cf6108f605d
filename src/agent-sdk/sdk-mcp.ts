// The program's in-process MCP servers (the SDK's `createSdkMcpServer`, named in initialize's
// `sdkMcpServers`): synapse's MCP client (src/mcp) talks to each through a transport whose every
// JSON-RPC message is an `mcp_message` control request, the server's reply coming back in its
// answer's `mcp_response`. Messages the server sends by itself arrive as the program's own
// `mcp_message` requests (deliver()). Replies are checked before the client sees them.

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/mini";
import type { ConfiguredServer } from "../mcp/sources.ts";
import type { ControlChannel } from "./control-channel.ts";

const reply = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number()]),
  result: z.optional(z.record(z.string(), z.unknown())),
  error: z.optional(z.looseObject({ code: z.number(), message: z.string() })),
});

type Id = string | number;
const INTERNAL_ERROR = -32603;

class ControlTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private closed = false;

  constructor(
    private readonly server: string,
    private readonly channel: ControlChannel,
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error(`MCP server ${this.server} is closed`);
    const id = "method" in message && "id" in message ? (message.id as Id) : undefined;
    const answer = await this.channel.request({ subtype: "mcp_message", server_name: this.server, message });
    // Notifications and our replies to the server's requests: the program only acknowledges them.
    if (id === undefined) return;
    if (!answer.ok) return this.fail(id, answer.error);
    const parsed = z.safeParse(reply, answer.response.mcp_response);
    if (!parsed.success || parsed.data.id !== id)
      return this.fail(id, "the program's reply was not a JSON-RPC answer to it");
    this.onmessage?.(parsed.data as JSONRPCMessage);
  }

  /** A message the server sent by itself (a notification such as tools/list_changed). */
  deliver(message: JSONRPCMessage): void {
    if (!this.closed) this.onmessage?.(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private fail(id: Id, error: string): void {
    this.onmessage?.({ jsonrpc: "2.0", id, error: { code: INTERNAL_ERROR, message: error } } as JSONRPCMessage);
  }
}

export interface SdkMcpServers {
  /** The servers as the session's MCP configuration takes them. */
  configured: ConfiguredServer[];
  /** The program's own `mcp_message`: handed to its server's open transport; false for no such server. */
  deliver(server: string, message: Record<string, unknown>): boolean;
}

export function sdkMcpServers(names: readonly string[], channel: ControlChannel): SdkMcpServers {
  const open = new Map<string, ControlTransport>();
  const configured: ConfiguredServer[] = names.map((name) => ({
    name,
    // The program that launched synapse configured it, as a --mcp-config would: no approval asked.
    scope: "flag",
    origin: "the Agent SDK program",
    raw: { type: "sdk", name },
    entry: {
      type: "in-process",
      transport: () => {
        const transport = new ControlTransport(name, channel);
        open.set(name, transport);
        return transport;
      },
    },
  }));
  return {
    configured,
    deliver(server, message) {
      const transport = open.get(server);
      if (!transport) return false;
      transport.deliver(message as JSONRPCMessage);
      return true;
    },
  };
}
