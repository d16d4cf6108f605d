// The control requests a program sends (initialize, interrupt, set_permission_mode, set_model,
// mcp_status, …), each checked against its schema and answered with one `control_response`.
// Anything else, or a request that fails, is an error response naming it: never a crash or a hang.

import { COMMANDS } from "../executor/command-registry.ts";
import { errorMessage } from "../protocol/errors.ts";
import { contextUsage } from "./context-usage.ts";
import { sdkMode } from "./permission-modes.ts";
import { rewindAnswer } from "./rewind-answer.ts";
import { type ControlRequestLine, type RequestSubtype, checkRequest, isKnownSubtype } from "./sdk-lines.ts";
import type { SessionControl } from "./types.ts";

type Handler = (session: SessionControl, body: never) => Promise<Record<string, unknown>>;

const HANDLERS: { [S in RequestSubtype]?: Handler } = {
  initialize: async (session, body: Parameters<SessionControl["initialize"]>[0]) => {
    // Settings the session opened without (a repeated initialize) are not applied: the answer says so.
    const applied = session.current === undefined;
    if (applied) session.initialize(body);
    return {
      commands: COMMANDS.map((c) => ({ name: c.name, description: c.summary, argumentHint: c.usage ?? "" })),
      agents: [],
      output_style: "default",
      available_output_styles: ["default"],
      models: [],
      account: {},
      pid: process.pid,
      ...(body.hooks ? { hooks_applied: applied } : {}),
    };
  },
  interrupt: async (session) => {
    session.interrupt();
    return {};
  },
  set_permission_mode: async (session, body: { mode: string }) => {
    await session.executor();
    const refused = session.setMode(body.mode);
    if (refused) throw new Error(refused);
    const current = session.current;
    if (!current) throw new Error("the session is not open");
    const mode = session.dontAsk ? "dontAsk" : sdkMode(current.runtime.permissionMode);
    return { mode };
  },
  set_model: async (session, body: { model?: string | null }) => {
    const executor = await session.executor();
    const wanted = body.model && body.model !== "default" ? body.model : session.config.model;
    if (wanted) executor.runtime.setModel(wanted);
    return {};
  },
  mcp_status: async (session) => {
    const executor = await session.executor();
    const reports = await executor.runtime.mcpServers(
      AbortSignal.timeout(session.config.mcp?.startTimeoutMs ?? 30_000),
    );
    return {
      mcpServers: reports.map((r) => ({
        name: r.name,
        status: r.status,
        scope: r.scope,
        ...(r.error ? { error: r.error } : {}),
        tools: r.tools.map((name) => ({ name })),
      })),
    };
  },
  get_binary_version: async (session) => ({ version: session.version }),
  get_context_usage: async (session) => {
    const facts = (await session.executor()).facts();
    return contextUsage({
      model: facts.model,
      contextTokens: facts.contextTokens,
      contextWindow: facts.contextWindow,
    });
  },
  rewind_files: async (session, body: { user_message_id: string; dry_run?: boolean }) => {
    const executor = await session.executor();
    const prompt = await session.promptOf(body.user_message_id);
    if (!prompt) return { canRewind: false, error: `no prompt of this session has uuid ${body.user_message_id}` };
    const files = await executor.runtime.rewindFiles(prompt, body.dry_run ?? false);
    return rewindAnswer(files);
  },
  mcp_message: async (session, body: { server_name: string; message: Record<string, unknown> }) => {
    await session.executor();
    if (!session.mcp?.deliver(body.server_name, body.message))
      throw new Error(`no SDK MCP server named ${body.server_name} is connected`);
    return {};
  },
};

/** The `control_response` line for one request. */
export async function answerControlRequest(session: SessionControl, line: ControlRequestLine): Promise<object> {
  const { request_id, request } = line;
  const fail = (error: string) => ({ type: "control_response", response: { subtype: "error", request_id, error } });
  const subtype = request.subtype;
  const handler = isKnownSubtype(subtype) ? HANDLERS[subtype] : undefined;
  if (!isKnownSubtype(subtype) || !handler) return fail(`unsupported control request subtype: ${subtype}`);
  const checked = checkRequest(subtype, request);
  if (!checked.ok) return fail(checked.error);
  try {
    const response = await handler(session, checked.value as never);
    return { type: "control_response", response: { subtype: "success", request_id, response } };
  } catch (err) {
    return fail(`${subtype}: ${errorMessage(err)}`);
  }
}
