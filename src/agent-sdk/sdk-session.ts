// A run driven by a Claude Agent SDK program (`--input-format stream-json`): stdin's lines are read
// in order; each user message is one turn, queued on the executor as the headless and interactive
// paths queue theirs; control requests are answered at once, while a turn runs; our own requests
// (can_use_tool, hook_callback) go out through the control channel. Every line is checked by its
// schema first (sdk-lines.ts): a malformed one is one stderr line and skipped, an unknown request
// an error response naming it. Nothing here writes to stdout but through `write` and `events`.

import type { Config } from "../config/config.ts";
import { type Executor, type ExecutorEvent, createExecutor } from "../executor/executor.ts";
import { openRuntime } from "../executor/session-runtime.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../policy/approval.ts";
import { errorMessage } from "../protocol/errors.ts";
import type { RunResult } from "../protocol/events.ts";
import type { ResumeTarget } from "../store/session.ts";
import { type ControlChannel, createControlChannel } from "./control-channel.ts";
import { answerControlRequest } from "./control-requests.ts";
import { applyMode } from "./mode-switch.ts";
import { askProgram } from "./permission-bridge.ts";
import { sdkHookSource, unsupportedHookEvents } from "./sdk-hooks.ts";
import { type SdkMcpServers, sdkMcpServers } from "./sdk-mcp.ts";
import { type InitializeRequest, type UserLine, parseSdkLine } from "./sdk-lines.ts";
import { firstSession } from "./new-session.ts";
import type { SdkSessionFlags, SessionControl } from "./types.ts";
import { turnInput } from "./user-content.ts";

export interface SdkSessionOptions {
  config: Config;
  resume?: ResumeTarget;
  flags: SdkSessionFlags;
  /** stdin, a line at a time. */
  lines: AsyncIterable<string>;
  /** One protocol line (control_request, control_response, a result the executor did not make). */
  write(line: object): void;
  /** The executor's events, for the stream-json writer. */
  events(event: ExecutorEvent): void;
  /** One line for stderr (ends in a newline). */
  err(text: string): void;
  /** This build's version, for initialize's answer. */
  version: string;
  /** The executor opened (the process's lifecycle owns it from then on). */
  onOpen?(executor: Executor): void;
}

export async function runSdkSession(opts: SdkSessionOptions): Promise<number> {
  const session = new SdkSession(opts);
  return session.run();
}

class SdkSession implements SessionControl {
  private readonly channel: ControlChannel;
  private opening: Promise<Executor> | undefined;
  private init: InitializeRequest | undefined;
  private turns: Promise<void> = Promise.resolve();
  private turnAbort = new AbortController();
  /** The last turn failed (the exit code says so, as a headless run's does). */
  private failed = false;
  /** The executor once open (a mode switch needs it). */
  current: Executor | undefined;
  /** The program's in-process MCP servers, once the executor opened with them. */
  mcp: SdkMcpServers | undefined;
  /** Recent calls by tool name and input, to name the call a permission question is about. */
  private readonly calls: { id: string; name: string; input: string }[] = [];
  private commandLines: string[] = [];
  /**
   * A user line's uuid → the id of the prompt it became, known once its turn ended (rewind_files
   * names prompts by uuid; the result line goes out a moment before the turn is over).
   */
  private readonly prompts = new Map<string, Promise<string | undefined>>();
  private readonly promptIds = new Set<string>();
  dontAsk: boolean;

  constructor(private readonly opts: SdkSessionOptions) {
    this.channel = createControlChannel(opts.write);
    this.dontAsk = opts.flags.dontAsk;
  }

  get config(): Config {
    return this.opts.config;
  }

  get flags(): SdkSessionFlags {
    return this.opts.flags;
  }

  get version(): string {
    return this.opts.version;
  }

  async run(): Promise<number> {
    for await (const text of this.opts.lines) {
      if (!text.trim()) continue;
      const parsed = parseSdkLine(text);
      if (!parsed.ok) {
        this.opts.err(`synapse: stdin: line skipped: ${parsed.error}\n`);
        if (parsed.requestId)
          this.opts.write({
            type: "control_response",
            response: { subtype: "error", request_id: parsed.requestId, error: parsed.error },
          });
        continue;
      }
      const line = parsed.line;
      if (line.type === "user") this.queueTurn(line);
      else if (line.type === "control_request")
        void answerControlRequest(this, line).then((response) => this.opts.write(response));
      else if (line.type === "control_response") {
        if (!this.channel.answer(line))
          this.opts.err(`synapse: stdin: an answer to no open request (${line.response.request_id}) ignored\n`);
      }
    }
    // The program went away: nothing it was asked is answered now; the turns it sent still run.
    this.channel.close("stdin ended");
    await this.turns;
    const executor = await this.opening?.catch(() => undefined);
    await executor?.close();
    return this.failed ? 1 : 0;
  }

  initialize(request: InitializeRequest): void {
    this.init = request;
  }

  executor(): Promise<Executor> {
    this.opening ??= this.open();
    return this.opening;
  }

  private async open(): Promise<Executor> {
    const { config } = this.opts;
    const approve = (request: ApprovalRequest) => this.approve(request);
    const prompt = systemPromptOf(this.init, this.opts.flags);
    const hooks = this.init?.hooks ?? undefined;
    const servers = this.init?.sdkMcpServers?.length ? sdkMcpServers(this.init.sdkMcpServers, this.channel) : undefined;
    this.mcp = servers;
    const unsupported = hooks ? unsupportedHookEvents(hooks) : [];
    if (unsupported.length)
      this.opts.err(`synapse: note: synapse never fires these hook events: ${unsupported.join(", ")}\n`);
    // --session-id and --fork-session name the process's first session only: /clear starts a fresh one.
    let newSession = firstSession(this.opts.flags);
    const executor = await createExecutor({
      config,
      resume: this.opts.resume,
      open: (sink, resume) => {
        const once = newSession;
        newSession = undefined;
        return openRuntime({
          config,
          resume,
          emit: sink,
          ...(once ? { newSession: once } : {}),
          ...(this.opts.flags.promptTool || this.dontAsk ? { approve } : {}),
          ...(prompt ? { systemPrompt: prompt } : {}),
          ...(hooks ? { hookSources: [sdkHookSource(hooks, this.channel)] } : {}),
          ...(servers ? { mcpServers: servers.configured } : {}),
        });
      },
      emit: (event) => this.emit(event),
    });
    this.current = executor;
    this.opts.onOpen?.(executor);
    return executor;
  }

  private emit(event: ExecutorEvent): void {
    if (event.type === "tool_start") {
      this.calls.push({ id: event.id, name: event.name, input: JSON.stringify(event.input) });
      if (this.calls.length > 64) this.calls.shift();
    }
    if (event.type === "command_output") {
      if (event.is_error) this.opts.err(`synapse: ${event.lines.join("\n")}\n`);
      else this.commandLines.push(...event.lines);
    }
    this.opts.events(event);
  }

  private async approve(request: ApprovalRequest): Promise<ApprovalAnswer> {
    if (this.dontAsk) return { no: "dontAsk mode: only calls the rules allow run" };
    // Started in dontAsk without a prompt tool, then switched: still nobody to ask.
    if (!this.opts.flags.promptTool) return { no: "nobody can be asked (no --permission-prompt-tool stdio)" };
    const input = JSON.stringify(request.input);
    const call = this.calls.findLast((c) => c.name === request.tool && c.input === input);
    const answer = await askProgram(request, {
      channel: this.channel,
      toolUseId: call?.id,
      signal: this.turnAbort.signal,
      setMode: (mode) => this.setMode(mode),
      note: (text) => this.opts.err(`${text}\n`),
    });
    // deny with interrupt: the program stops the turn, as Claude Code does.
    if (typeof answer === "object" && answer.stop) this.interrupt();
    return answer;
  }

  private queueTurn(line: UserLine): void {
    let noted: (id: string | undefined) => void = () => undefined;
    if (line.uuid)
      this.prompts.set(
        line.uuid,
        new Promise((resolve) => {
          noted = resolve;
        }),
      );
    this.turns = this.turns
      .then(() => this.runTurn(line, noted))
      .catch((err) => this.failTurn(err))
      .finally(() => noted(undefined));
  }

  private async runTurn(line: UserLine, noted: (id: string | undefined) => void): Promise<void> {
    const executor = await this.executor();
    const input = await turnInput(line.message.content);
    try {
      this.turnAbort = new AbortController();
      this.commandLines = [];
      const outcome = await executor.waitFor(executor.submit({ text: input.text, images: input.images }));
      this.failed = outcome.result ? failedRun(outcome.result) : outcome.status === "failed";
      if (outcome.result && line.uuid) noted(await this.newestPrompt(executor));
      if (outcome.result) return;
      // A slash command runs no model turn: the program still gets the one result it waits for.
      await this.writeResult(outcome.status === "done", outcome.error ?? this.commandLines.join("\n"));
    } finally {
      await input.dispose();
    }
  }

  private async failTurn(err: unknown): Promise<void> {
    this.failed = true;
    await this.writeResult(false, errorMessage(err));
  }

  private async writeResult(ok: boolean, text: string): Promise<void> {
    const executor = this.opening ? await this.opening.catch(() => undefined) : undefined;
    const result = {
      type: "result",
      subtype: ok ? "success" : "error_during_execution",
      is_error: !ok,
      result: text,
      num_turns: 0,
      duration_ms: 0,
      session_id: executor?.runtime.sessionId ?? "",
      usage: { input_tokens: 0, output_tokens: 0 },
      permission_denials: [],
      ...(ok ? {} : { errors: [text] }),
      uuid: crypto.randomUUID(),
    };
    this.opts.write(result);
  }

  promptOf(uuid: string): Promise<string | undefined> {
    return this.prompts.get(uuid) ?? Promise.resolve(undefined);
  }

  /** The turn's prompt is the newest rewind point, unless an earlier line already took it. */
  private async newestPrompt(executor: Executor): Promise<string | undefined> {
    const newest = (await executor.runtime.rewindPoints()).at(-1);
    if (!newest || this.promptIds.has(newest.id)) return undefined;
    this.promptIds.add(newest.id);
    return newest.id;
  }

  interrupt(): void {
    this.turnAbort.abort();
    this.current?.interrupt();
  }

  setMode(mode: string): string | undefined {
    return applyMode(this, mode);
  }
}

const failedRun = (r: RunResult) => r.is_error && r.subtype !== "interrupted";

/** The system prompt a run asked for: initialize's (the SDK's option) over the flags. */
function systemPromptOf(
  init: InitializeRequest | undefined,
  flags: SdkSessionFlags,
): { replace?: string; append?: string } | undefined {
  const fromInit = Array.isArray(init?.systemPrompt) ? init.systemPrompt.join("\n") : init?.systemPrompt;
  const replace = fromInit?.trim() ? fromInit : flags.systemPrompt;
  const append = init?.appendSystemPrompt ?? flags.appendSystemPrompt;
  // The SDK sends an empty prompt when its program set none: Synapse's own prompt stays then.
  if (!replace?.trim() && !append?.trim()) return undefined;
  return { ...(replace?.trim() ? { replace } : {}), ...(append?.trim() ? { append } : {}) };
}
