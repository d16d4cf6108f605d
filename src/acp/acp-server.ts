// `synapse acp`: an Agent Client Protocol agent on stdin/stdout (newline-delimited JSON-RPC through
// the official SDK), so an editor (Zed, JetBrains, Neovim, Emacs) runs Synapse. stdout carries the
// protocol and nothing else; logs go to stderr. The SDK answers malformed JSON and unknown methods
// with JSON-RPC errors; a client that goes away ends the process with every session saved.
// Logs also go to <SYNAPSE_HOME>/logs/acp.log (log-file.ts).

import {
  type AgentContext,
  type InitializeResponse,
  type McpServer,
  PROTOCOL_VERSION,
  RequestError,
  agent,
  methods,
  ndJsonStream,
} from "@agentclientprotocol/sdk";
import { isAbsolute } from "node:path";
import type { Config } from "../config/config.ts";
import { withEditorMcpServers } from "./editor-mcp-servers.ts";
import { EXIT, SynapseError, UsageError, errorMessage } from "../protocol/errors.ts";
import { runtime } from "../runtime/runtime.ts";
import { routeConsole } from "../runtime/console-route.ts";
import { redactSecrets } from "../policy/secret-redaction.ts";
import { listSessions } from "../store/sessions-list.ts";
import { type AcpSession, openAcpSession } from "./acp-session.ts";
import { createLog } from "./log-file.ts";
import { createSessionRegistry } from "./session-registry.ts";

export interface AcpOptions {
  /**
   * The configuration of a session working in `cwd` (flags, env and that folder's project file),
   * with `addDirs` as more --add-dir folders; checked like -C and --add-dir.
   */
  configFor(cwd: string, addDirs?: readonly string[]): Config;
  /** Where sessions are stored. */
  home: string;
  version: string;
  /** Secret values (the keys), kept out of what libraries write to the console and the log. */
  secrets: readonly string[];
}

function parseSetModel(params: unknown): { sessionId: string; modelId: string } {
  const p = params as { sessionId?: unknown; modelId?: unknown } | null;
  if (typeof p?.sessionId !== "string" || typeof p.modelId !== "string") {
    throw RequestError.invalidParams(undefined, "session/set_model needs a sessionId and a modelId (strings)");
  }
  return { sessionId: p.sessionId, modelId: p.modelId };
}

/** The protocol version the SDK pins, and what Synapse offers. */
export function initializeResponse(version: string): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      // The editor's MCP servers of `session/new`: stdio always; Streamable HTTP (SSE as its fallback).
      mcpCapabilities: { http: true },
      sessionCapabilities: { list: {}, resume: {}, close: {}, additionalDirectories: {} },
    },
    agentInfo: { name: "synapse", title: "Synapse", version },
    authMethods: [],
  };
}

/** Where a session works: the editor's folder and, like --add-dir, more folders of the workspace. */
interface SessionPlace {
  cwd: string;
  additionalDirectories?: string[];
  /** The MCP servers the editor chose for this session (started as --mcp-config ones). */
  mcpServers?: McpServer[];
}

const SIGNAL_CODES: Record<string, number> = { SIGINT: EXIT.interrupted, SIGTERM: 143, SIGHUP: 129 };

/** A protocol error the client can read, for what went wrong opening or running a session. */
function asRequestError(err: unknown): RequestError {
  if (err instanceof RequestError) return err;
  if (err instanceof UsageError) return RequestError.invalidParams(undefined, err.message);
  return RequestError.internalError(undefined, err instanceof SynapseError ? err.message : errorMessage(err));
}

const guarded = <T>(work: () => Promise<T>): Promise<T> =>
  work().catch((err) => {
    throw asRequestError(err);
  });

/** Bytes the SDK writes → the runtime's stdout sink (not process.stdout, which costs start-up time). */
function stdoutStream(): WritableStream<Uint8Array> {
  const decoder = new TextDecoder();
  return new WritableStream({
    write(chunk) {
      runtime.stdout.write(decoder.decode(chunk, { stream: true }));
      return runtime.stdout.flush();
    },
  });
}

export async function runAcp(opts: AcpOptions): Promise<number> {
  const log = createLog(opts.home, (text) => runtime.stderr.write(text));
  // stdout is the protocol: a library's console write (the SDK's logging with ANTHROPIC_LOG set) goes
  // to stderr and the log, without the keys.
  routeConsole((text) => log(redactSecrets(text, opts.secrets)));
  const registry = createSessionRegistry(log);
  let clientFs: { readTextFile?: boolean; writeTextFile?: boolean } | undefined;

  async function open(client: AgentContext, at: SessionPlace, resume?: { id: string }): Promise<AcpSession> {
    // The protocol's paths are absolute: a relative one would silently mean wherever the editor started us.
    const relative = [at.cwd, ...(at.additionalDirectories ?? [])].find((p) => !isAbsolute(p));
    if (relative !== undefined) throw new UsageError(`not an absolute path: ${JSON.stringify(relative)}`);
    const config = withEditorMcpServers(opts.configFor(at.cwd, at.additionalDirectories ?? []), at.mcpServers);
    const session = await openAcpSession({ config, client, resume, fs: clientFs, log });
    registry.add(session);
    // After the answer that tells the client the session's id (the SDK writes it when we return).
    setTimeout(() => session.announce(), 0);
    return session;
  }

  const app = agent({ name: "synapse" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientFs = params.clientCapabilities?.fs;
      return initializeResponse(opts.version);
    })
    .onRequest(methods.agent.session.new, ({ params, client }) =>
      guarded(async () => {
        const session = await open(client, params);
        return { sessionId: session.id, modes: session.modes() };
      }),
    )
    .onRequest(methods.agent.session.load, ({ params, client }) =>
      guarded(async () => {
        if (registry.has(params.sessionId)) throw new UsageError(`session ${params.sessionId} is already open here`);
        const session = await open(client, params, { id: params.sessionId });
        await session.replay();
        return { modes: session.modes() };
      }),
    )
    // Like load, without telling the conversation again (the editor still shows it).
    .onRequest(methods.agent.session.resume, ({ params, client }) =>
      guarded(async () => {
        if (registry.has(params.sessionId)) throw new UsageError(`session ${params.sessionId} is already open here`);
        const session = await open(client, params, { id: params.sessionId });
        return { modes: session.modes() };
      }),
    )
    .onRequest(methods.agent.session.close, ({ params }) =>
      guarded(async () => {
        await registry.close(params.sessionId);
        return {};
      }),
    )
    .onRequest(methods.agent.session.list, ({ params }) =>
      guarded(async () => {
        const all = await listSessions(opts.home, log);
        const sessions = all
          .filter((s) => !s.state && s.cwd && (!params.cwd || s.cwd === params.cwd))
          .map((s) => ({
            sessionId: s.id,
            cwd: s.cwd,
            title: s.title || null,
            updatedAt: new Date(s.updated).toISOString(),
          }));
        return { sessions };
      }),
    )
    .onRequest(methods.agent.session.prompt, ({ params }) =>
      guarded(() => registry.get(params.sessionId).prompt(params.prompt)),
    )
    .onRequest(methods.agent.session.setMode, ({ params }) =>
      guarded(async () => {
        await registry.get(params.sessionId).setMode(params.modeId);
        return {};
      }),
    )
    // Not in the stable protocol yet (the SDK's unstable entry has it): editors that offer a model
    // picker send it. The same as typing /model <id>.
    .onRequest("session/set_model", parseSetModel, ({ params }) =>
      guarded(async () => {
        await registry.get(params.sessionId).setModel(params.modelId);
        return {};
      }),
    )
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      if (registry.has(params.sessionId)) registry.get(params.sessionId).cancel();
    });

  const connection = app.connect(ndJsonStream(stdoutStream(), runtime.stdinStream()));
  let code: number = EXIT.ok;
  const onSignal = (signal: NodeJS.Signals) => {
    code = SIGNAL_CODES[signal] ?? EXIT.failed;
    connection.close();
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, onSignal);
  // Whatever ends the process, no shell or child a session started may outlive it.
  process.on("exit", () => registry.killAllNow());
  await connection.closed.catch((err) => log(`connection closed: ${errorMessage(err)}`));
  // The client went away (or stdin ended): every turn stops, every session is saved.
  await registry.closeAll();
  await runtime.stderr.flush().catch(() => {});
  return code;
}
