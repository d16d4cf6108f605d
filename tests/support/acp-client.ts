// A real ACP client (the official SDK's) driving the compiled `synapse acp`, as an editor does: it
// records every session/update, answers permission questions with a policy the test picks, and
// can end the agent's stdin (the editor closed) or write raw bytes (a malformed message).

import { readFileSync } from "node:fs";
import * as acp from "@agentclientprotocol/sdk";
import { BINARY, tempHome } from "./binary.ts";

/** "hold": no answer until the agent withdraws the question ($/cancel_request), then "cancelled". */
export type PermissionAnswer = "allow_once" | "allow_always" | "reject_once" | "cancel" | "hold";

export interface AcpAgentProcess {
  proc: ReturnType<typeof Bun.spawn>;
  conn: acp.ClientConnection;
  /** Every session/update received, in order. */
  updates: acp.SessionNotification[];
  /** Every permission question asked. */
  permissions: acp.RequestPermissionRequest[];
  /** What the next permission questions are answered. */
  answer: PermissionAnswer;
  /** The editor's buffers by absolute path: fs/read_text_file answers from here, else from disk. */
  buffers: Map<string, string>;
  /** Every fs/read_text_file and fs/write_text_file the agent sent (writes are kept, not saved). */
  fsCalls: Array<{ method: "read" | "write"; path: string; content?: string }>;
  /** Every terminal/create the agent sent (answered with an error: Synapse must never send one). */
  terminalCreates: acp.CreateTerminalRequest[];
  /** Resolves with the first update `match` accepts (already received ones count). */
  waitForUpdate(match: (u: acp.SessionNotification) => boolean): Promise<acp.SessionNotification>;
  /** Resolves when a permission question arrives (already asked ones count). */
  waitForPermission(): Promise<acp.RequestPermissionRequest>;
  stderr(): Promise<string>;
  writeRaw(text: string): void;
  /** Closes the agent's stdin and waits for it to exit. */
  end(): Promise<number>;
}

export function startAcpAgent(env: Record<string, string>, args: string[] = []): AcpAgentProcess {
  const home = env.HOME ? undefined : tempHome();
  const fullEnv: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home?.env, ...env };
  const proc = Bun.spawn([BINARY, "acp", ...args], {
    env: fullEnv,
    cwd: env.HOME ?? home!.dir,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const waiters: Array<() => void> = [];
  const changed = () => waiters.splice(0).forEach((w) => w());
  const until = <T>(find: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const check = () => {
        const found = find();
        if (found !== undefined) resolve(found);
        else waiters.push(check);
      };
      check();
    });
  const self: AcpAgentProcess = {
    proc,
    conn: undefined as unknown as acp.ClientConnection,
    updates,
    permissions,
    answer: "allow_once",
    buffers: new Map(),
    fsCalls: [],
    terminalCreates: [],
    waitForUpdate: (match) => until(() => updates.find(match)),
    waitForPermission: () => until(() => permissions[0]),
    stderr: () => new Response(proc.stderr as ReadableStream).text(),
    writeRaw(text) {
      (proc.stdin as import("bun").FileSink).write(text);
      (proc.stdin as import("bun").FileSink).flush();
    },
    async end() {
      (proc.stdin as import("bun").FileSink).end();
      return proc.exited;
    },
  };
  const stdin = proc.stdin as import("bun").FileSink;
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      stdin.write(chunk);
      stdin.flush();
    },
  });
  const app = acp
    .client({ name: "synapse-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      changed();
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
      permissions.push(params);
      changed();
      if (self.answer === "hold" && !signal.aborted)
        await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
      if (self.answer === "cancel" || signal.aborted) return { outcome: { outcome: "cancelled" } };
      const option = params.options.find((o) => o.kind === self.answer);
      return { outcome: option ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" } };
    });
  app
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      self.fsCalls.push({ method: "read", path: params.path });
      return { content: self.buffers.get(params.path) ?? readFileSync(params.path, "utf8") };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      self.fsCalls.push({ method: "write", path: params.path, content: params.content });
      self.buffers.set(params.path, params.content);
      return {};
    })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      self.terminalCreates.push(params);
      throw new Error("this test client runs no commands");
    });
  self.conn = app.connect(acp.ndJsonStream(output, proc.stdout as ReadableStream<Uint8Array>));
  return self;
}

/** `fs`: offer the editor's file methods (answered from `agent.buffers`); `terminal`: offer terminals. */
export async function initialize(
  agent: AcpAgentProcess,
  opts: { fs?: boolean; terminal?: boolean } = {},
): Promise<acp.InitializeResponse> {
  return agent.conn.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {
      fs: { readTextFile: Boolean(opts.fs), writeTextFile: Boolean(opts.fs) },
      terminal: Boolean(opts.terminal),
    },
    clientInfo: { name: "synapse-test", version: "1" },
  });
}

/** The text of every agent_message_chunk of a session, joined. */
export function agentText(updates: readonly acp.SessionNotification[], sessionId: string): string {
  return updates
    .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === "agent_message_chunk")
    .map((n) => {
      const u = n.update as { content: acp.ContentBlock };
      return u.content.type === "text" ? u.content.text : "";
    })
    .join("");
}

/** The updates about one tool call (tool_call and tool_call_update), in order. */
export function toolUpdates(
  updates: readonly acp.SessionNotification[],
  sessionId: string,
): Array<acp.ToolCall | acp.ToolCallUpdate> {
  return updates
    .filter(
      (n) =>
        n.sessionId === sessionId &&
        (n.update.sessionUpdate === "tool_call" || n.update.sessionUpdate === "tool_call_update"),
    )
    .map((n) => n.update as acp.ToolCall | acp.ToolCallUpdate);
}
