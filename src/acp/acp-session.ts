// One ACP session: a Synapse executor opened in the editor's folder, its events streamed to the
// editor as `session/update`s, its permission questions asked through `session/request_permission`,
// and a prompt turn's end told as a stop reason. It drives the executor exactly as the headless and
// interactive paths do: submit, waitFor, interrupt, close.

import {
  type AgentContext,
  type ContentBlock,
  type PromptResponse,
  RequestError,
  type RequestPermissionRequest,
  type SendRequestOptions,
  type SessionModeState,
  type SessionUpdate,
  type ToolCallUpdate,
  methods,
} from "@agentclientprotocol/sdk";
import type { Config } from "../config/config.ts";
import { COMMANDS } from "../executor/command-registry.ts";
import { type Executor, type ExecutorEvent, createExecutor } from "../executor/executor.ts";
import { openRuntime } from "../executor/session-runtime.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../policy/approval.ts";
import type { EditorFiles } from "../tools/editor-files.ts";
import { UsageError, errorMessage } from "../protocol/errors.ts";
import { createUpdateMapper } from "./event-updates.ts";
import { modeState, permissionModeOf } from "./modes.ts";
import { answerFor, permissionOptions } from "./permission-bridge.ts";
import { type ComposedPrompt, composePrompt } from "./prompt-content.ts";
import { replayUpdates } from "./replay.ts";
import { turnEnd } from "./stop-reason.ts";
import { toolKind, toolTitle } from "./tool-kind.ts";

/** How many of a loaded session's newest messages are told again to the editor. */
export const REPLAY_MESSAGES = 200;

export interface AcpSessionOptions {
  config: Config;
  client: AgentContext;
  resume?: { id: string };
  /** What the client offered at initialize: its file methods are used when offered. */
  fs?: { readTextFile?: boolean; writeTextFile?: boolean };
  log(line: string): void;
}

export interface AcpSession {
  readonly id: string;
  readonly cwd: string;
  modes(): SessionModeState;
  prompt(blocks: ContentBlock[]): Promise<PromptResponse>;
  /** session/cancel: the running turn stops as Esc stops it; a pending permission question is refused. */
  cancel(): void;
  setMode(modeId: string): Promise<void>;
  /** session/set_model: `/model <id>` run through the executor, so it is recorded as /model records it. */
  setModel(modelId: string): Promise<void>;
  /** session/load: the stored conversation, told again as updates. */
  replay(): Promise<void>;
  /** Announces the slash commands (after the session/new or session/load answer). */
  announce(): void;
  close(): Promise<void>;
  killNow(): void;
}

/** The prompt turn running; `id` once its submission is queued. */
interface Turn {
  id?: string;
  controller: AbortController;
}

export async function openAcpSession(opts: AcpSessionOptions): Promise<AcpSession> {
  const session = new ExecutorSession(opts);
  await session.open();
  return session;
}

/** An AcpSession over one executor: each protocol method one method here. */
class ExecutorSession implements AcpSession {
  private readonly mapper: ReturnType<typeof createUpdateMapper>;
  private sessionId = "";
  private sending: Promise<unknown> = Promise.resolve();
  private turn: Turn | undefined;
  private executor!: Executor;

  constructor(private readonly opts: AcpSessionOptions) {
    this.mapper = createUpdateMapper(opts.config.cwd, { late: (update) => this.send(update) });
  }

  get id(): string {
    return this.sessionId;
  }

  get cwd(): string {
    return this.opts.config.cwd;
  }

  async open(): Promise<void> {
    const { config } = this.opts;
    const approve = (request: ApprovalRequest) => this.approve(request);
    const editorFiles = this.editorFiles();
    this.executor = await createExecutor({
      config,
      resume: this.opts.resume,
      open: (sink, resume) => openRuntime({ config, resume, emit: sink, approve, editorFiles }),
      emit: (event) => this.emit(event),
    });
    this.sessionId = this.executor.runtime.sessionId;
  }

  /** In order, one after another; a client gone away only loses the updates. */
  private send(update: SessionUpdate): void {
    if (!this.sessionId) return;
    const params = { sessionId: this.sessionId, update };
    this.sending = this.sending
      .then(() => this.opts.client.notify(methods.client.session.update, params))
      .catch((err) => this.opts.log(`could not send an update: ${errorMessage(err)}`));
  }

  private emit(event: ExecutorEvent): void {
    const { log } = this.opts;
    if (event.type === "warning") log(`warning: ${event.message}`);
    else if (event.type === "command_output" && event.is_error) log(event.lines.join("\n"));
    // A command run for a protocol method (set_model) answers in that method's result, not as chat.
    if (event.type === "command_output" && !this.turn) return;
    for (const update of this.mapper.map(event)) this.send(update);
  }

  private async approve(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const { client, log } = this.opts;
    const signal = this.turn?.controller.signal;
    if (!signal || signal.aborted) return { no: "the turn was cancelled", stop: true };
    const toolCallId = this.mapper.findCall(request.tool, request.input) ?? `permission-${Date.now()}`;
    const options = permissionOptions(request);
    const toolCall: ToolCallUpdate = {
      toolCallId,
      title: toolTitle(request.tool, request.input),
      kind: toolKind(request.tool, request.input),
      status: "pending",
      rawInput: request.input,
      content: [{ type: "content", content: { type: "text", text: `Needs permission: ${request.reason}` } }],
    };
    await this.sending;
    // session/cancel stops waiting at once (the client still answers "cancelled"): a refusal.
    const params: RequestPermissionRequest = { sessionId: this.sessionId, toolCall, options };
    const waiting: SendRequestOptions = { cancellationSignal: signal, stopWaitingOnCancel: true };
    const answer = await client.request(methods.client.session.requestPermission, params, waiting).then(
      (response) => answerFor(response.outcome, options),
      (err): ApprovalAnswer => {
        if (!signal.aborted) log(`permission request failed: ${errorMessage(err)}`);
        return { no: signal.aborted ? "the turn was cancelled" : "the editor did not answer", stop: true };
      },
    );
    if (answer === "yes" || answer === "always")
      this.send({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
    return answer;
  }

  /** Read, Write and Edit see and change the editor's buffers (tools/editor-files.ts). */
  private editorFiles(): EditorFiles {
    const { client, fs } = this.opts;
    const sessionId = () => this.sessionId;
    return {
      ...(fs?.readTextFile
        ? {
            read: async (path: string) =>
              (await client.request(methods.client.fs.readTextFile, { sessionId: sessionId(), path })).content,
          }
        : {}),
      ...(fs?.writeTextFile
        ? {
            write: async (path: string, content: string) =>
              void (await client.request(methods.client.fs.writeTextFile, { sessionId: sessionId(), path, content })),
          }
        : {}),
    };
  }

  modes(): SessionModeState {
    return modeState(this.executor.runtime.permissionMode);
  }

  async prompt(blocks: ContentBlock[]): Promise<PromptResponse> {
    if (this.turn) throw RequestError.invalidRequest(undefined, "a prompt is already running in this session");
    // Set before anything is awaited: a cancel that comes while the prompt is being read counts.
    const current: Turn = { controller: new AbortController() };
    this.turn = current;
    let composed: ComposedPrompt | undefined;
    try {
      try {
        composed = await composePrompt(blocks);
      } catch (err) {
        throw RequestError.invalidParams(undefined, errorMessage(err));
      }
      if (current.controller.signal.aborted) return { stopReason: "cancelled" };
      current.id = this.executor.submit({ text: composed.text, images: composed.images });
      const outcome = await this.executor.waitFor(current.id);
      // Every update of the turn goes out before the answer that ends it.
      await this.sending;
      const end = turnEnd(outcome);
      if ("error" in end) throw RequestError.internalError(undefined, end.error);
      return { stopReason: end.stopReason };
    } finally {
      this.turn = undefined;
      await composed?.dispose();
    }
  }

  cancel(): void {
    if (!this.turn) return;
    this.turn.controller.abort();
    if (this.turn.id) this.executor.interrupt(this.turn.id);
  }

  async setMode(modeId: string): Promise<void> {
    let mode: ReturnType<typeof permissionModeOf>;
    try {
      mode = permissionModeOf(modeId);
    } catch (err) {
      throw RequestError.invalidParams(undefined, err instanceof UsageError ? err.message : errorMessage(err));
    }
    this.executor.runtime.setPermissionMode(mode);
    this.send({ sessionUpdate: "current_mode_update", currentModeId: mode });
    await this.sending;
  }

  async setModel(modelId: string): Promise<void> {
    if (this.turn) throw RequestError.invalidRequest(undefined, "a prompt is running in this session");
    const name = modelId.trim();
    if (!name || /\s/.test(name))
      throw RequestError.invalidParams(undefined, `not a model name: ${JSON.stringify(modelId)}`);
    const outcome = await this.executor.waitFor(this.executor.submit({ text: `/model ${name}` }));
    if (outcome.status !== "done")
      throw RequestError.invalidParams(undefined, outcome.error ?? `could not switch to ${modelId}`);
  }

  async replay(): Promise<void> {
    for (const update of replayUpdates(this.executor.runtime.recent(REPLAY_MESSAGES), this.opts.config.cwd))
      this.send(update);
    await this.sending;
  }

  announce(): void {
    const availableCommands = COMMANDS.map((c) => ({
      name: c.name,
      description: c.summary,
      ...(c.usage ? { input: { hint: c.usage } } : {}),
    }));
    this.send({ sessionUpdate: "available_commands_update", availableCommands });
  }

  async close(): Promise<void> {
    this.turn?.controller.abort();
    this.executor.interruptAll();
    await this.executor.close();
    await this.sending;
  }

  killNow(): void {
    this.executor.killNow();
  }
}
