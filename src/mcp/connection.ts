// One MCP server for the length of a session: started (bounded by the start timeout), its tool
// list (refreshed after `notifications/tools/list_changed`), calls (bounded by the call timeout),
// one restart after a crash, and its end. Failures become states and messages, never throws that
// could end the session.

import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ServerPrompt } from "./prompt-command.ts";
import { errorMessage } from "../protocol/errors.ts";
import { stdioStartFailure } from "./start-failure.ts";
import { trustedBinary } from "../runtime/trusted-path.ts";
import type { McpServerEntry } from "./server-entry.ts";
import { StdioProcessTransport } from "./stdio-transport.ts";

type PromptMessage = { role?: unknown; content?: unknown };

export type ServerStatus = "pending" | "connected" | "failed" | "needs-approval";

/** A tool as the server lists it. */
export interface ServerTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  annotations?: { readOnlyHint?: boolean; title?: string };
}

export interface ConnectionOptions {
  /** The session's working directory: a stdio server's default cwd. */
  cwd: string;
  /** The scrubbed environment stdio servers start with (their own `env` added). */
  env: Record<string, string>;
  logPath: string;
  watchdogPath: string;
  startTimeoutMs: number;
  callTimeoutMs: number;
  /** Told once when a connected server stops (a crash): the session goes on. */
  warn(message: string): void;
}

const CLIENT_INFO = { name: "synapse", version: "0.1.0" };

class Timeout extends Error {}

function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

export class McpConnection {
  status: ServerStatus = "pending";
  error?: string;
  tools: ServerTool[] = [];
  /** Its prompts (slash commands `/mcp__<server>__<prompt>`), listed once at start. */
  prompts: ServerPrompt[] = [];
  /** The tool list changed on the server and has not been fetched again. */
  stale = false;
  private client: Client | null = null;
  private transport: Transport | null = null;
  private restarted = false;
  /** The server ended after it connected (a crash): the next call restarts it, once. */
  private crashed = false;
  private closing = false;

  constructor(
    readonly name: string,
    private readonly entry: McpServerEntry,
    private readonly opts: ConnectionOptions,
  ) {}

  /** Starts the server and lists its tools; on failure the status says why. */
  async connect(): Promise<void> {
    try {
      await within(this.opts.startTimeoutMs, "starting the server (SYNAPSE_MCP_TIMEOUT_MS)", this.open());
      this.status = "connected";
      this.error = undefined;
    } catch (err) {
      this.status = "failed";
      const entry = this.entry;
      this.error = entry.type === "stdio" ? stdioStartFailure(errorMessage(err), entry.command) : errorMessage(err);
      await this.dispose();
    }
  }

  private async open(): Promise<void> {
    const entry = this.entry;
    if (entry.type === "http") {
      const init = { requestInit: { headers: entry.headers } };
      try {
        await this.openWith(new StreamableHTTPClientTransport(new URL(entry.url), init));
      } catch (err) {
        if (err instanceof Timeout) throw err;
        // Servers that only speak the older HTTP+SSE transport refuse the POST: try that once.
        await this.dispose();
        try {
          await this.openWith(new SSEClientTransport(new URL(entry.url), init));
        } catch {
          throw err;
        }
      }
    } else if (entry.type === "sse") {
      await this.openWith(new SSEClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }));
    } else if (entry.type === "in-process") {
      await this.openWith(entry.transport());
    } else {
      await this.openWith(this.stdioTransport(entry as Extract<McpServerEntry, { type: "stdio" }>));
    }
  }

  private stdioTransport(entry: Extract<McpServerEntry, { type: "stdio" }>): Transport {
    const cwd = resolve(this.opts.cwd, entry.cwd ?? ".");
    // A bare name is looked up on the trusted PATH (never a folder of the workspace); a path is the
    // user's (or the approved project entry's) own choice.
    const program = entry.command.includes("/") ? resolve(cwd, entry.command) : trustedBinary(entry.command);
    if (!program) throw new Error(`"${entry.command}" was not found on the trusted PATH`);
    return new StdioProcessTransport({
      argv: [program, ...entry.args],
      cwd,
      env: { ...this.opts.env, ...entry.env },
      logPath: this.opts.logPath,
      watchdogPath: this.opts.watchdogPath,
      watchdogEnv: this.opts.env,
    });
  }

  private async openWith(transport: Transport): Promise<void> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    this.transport = transport;
    this.client = client;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.stale = true;
    });
    client.onclose = () => {
      if (this.client !== client || this.closing) return;
      if (this.status !== "connected" || this.crashed) return;
      this.crashed = true;
      const next = this.restarted ? "it is not started again this session" : "it is started again on its next call";
      this.opts.warn(`MCP server "${this.name}" stopped (its log: ${this.opts.logPath}); ${next}`);
    };
    await client.connect(transport, { timeout: this.opts.startTimeoutMs });
    await this.listTools();
    if (client.getServerCapabilities()?.prompts) await this.listPrompts();
  }

  private async listTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const tools: ServerTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.opts.startTimeoutMs });
      tools.push(...(page.tools as ServerTool[]));
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    this.stale = false;
  }

  private async listPrompts(): Promise<void> {
    const prompts: ServerPrompt[] = [];
    let cursor: string | undefined;
    do {
      const options = { timeout: this.opts.startTimeoutMs };
      const client = this.client;
      if (!client) return;
      const page = await client.listPrompts(cursor ? { cursor } : undefined, options);
      prompts.push(...page.prompts);
      cursor = page.nextCursor;
    } while (cursor);
    this.prompts = prompts;
  }

  /** A prompt's messages for these arguments. */
  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<PromptMessage[]> {
    if (this.status !== "connected" || !this.client) {
      throw new Error(`${this.named} is not connected: ${this.error ?? this.status}`);
    }
    const result = await this.client.getPrompt({ name, arguments: args }, { signal, timeout: this.opts.callTimeoutMs });
    return result.messages;
  }

  /** Fetches the tool list again after the server said it changed; true when it did. */
  async refresh(): Promise<boolean> {
    if (!this.stale || this.status !== "connected") return false;
    try {
      await this.listTools();
      return true;
    } catch (err) {
      this.stale = false;
      this.error = `could not list its tools again: ${errorMessage(err)}`;
      return false;
    }
  }

  /**
   * Calls a tool. A server that crashed is started again, once per session; a server that cannot
   * be reached throws an Error whose message the model gets.
   */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (this.crashed) {
      if (this.restarted) throw new Error(`${this.named} stopped and was already restarted once this session`);
      this.restarted = true;
      this.crashed = false;
      await this.dispose();
      await this.connect();
    }
    if (this.status !== "connected" || !this.client) {
      throw new Error(`${this.named} is not connected: ${this.error ?? this.status}`);
    }
    try {
      const options = { signal, timeout: this.opts.callTimeoutMs };
      const result = await this.client.callTool({ name: tool, arguments: args }, undefined, options);
      return result as Record<string, unknown>;
    } catch (err) {
      if (signal.aborted) throw err;
      const message = errorMessage(err);
      if (/timed out/i.test(message)) {
        const limit = `${this.opts.callTimeoutMs} ms (SYNAPSE_MCP_TOOL_TIMEOUT_MS)`;
        throw new Error(`${this.named} did not answer within ${limit}`);
      }
      if (this.crashed) throw new Error(`${this.named} stopped during the call (${message})`);
      throw err;
    }
  }

  /** A resource's contents (`@server:uri` in a prompt); bounded by the call timeout. */
  async readResource(uri: string, signal: AbortSignal): Promise<unknown[]> {
    if (this.status !== "connected" || !this.client) {
      throw new Error(`${this.named} is not connected: ${this.error ?? this.status}`);
    }
    const result = await this.client.readResource({ uri }, { signal, timeout: this.opts.callTimeoutMs });
    return result.contents;
  }

  private async dispose(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = null;
    this.transport = null;
    this.closing = true;
    try {
      await client?.close();
      await transport?.close();
    } catch {
      // gone already
    } finally {
      this.closing = false;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.dispose();
    this.closing = true;
  }

  /** Synchronous, for process exit: the server's process session is killed. */
  killNow(): void {
    if (this.transport instanceof StdioProcessTransport) this.transport.killNow();
  }

  private get named(): string {
    return `the MCP server "${this.name}"`;
  }

  get pid(): number | undefined {
    return this.transport instanceof StdioProcessTransport ? this.transport.pid : undefined;
  }
}
