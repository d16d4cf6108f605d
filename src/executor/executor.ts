// The control plane: each user input is a submission, dispatched into input actions and run one
// submission at a time. Long actions (RunAgent, RunCompact) run under the submission's own
// AbortController, so an interrupt cancels exactly that work; `waitFor` resolves when all of a
// submission's work is done. Nothing is kept for a finished submission.

import { contextWindowFor } from "../context/model-windows.ts";
import type { Config } from "../config/config.ts";
import { RESUME_SCAN, lastContextTokens } from "./resumed-context.ts";
import { listModels } from "../llm/model-list.ts";
import { addUsage, priceFor } from "../llm/pricing.ts";
import { EXIT, InterruptedError, SynapseError, errorMessage } from "../protocol/errors.ts";
import type { AgentEvent, RunResult } from "../protocol/events.ts";
import type { ContentBlock, Usage } from "../protocol/message.ts";
import { listSessions } from "../store/sessions-list.ts";
import type { ResumeTarget } from "../store/session.ts";
import { COMMANDS } from "./command-registry.ts";
import { dispatch } from "./dispatch.ts";
import type { InputAction } from "./input-action.ts";
import type { SessionRuntime } from "./session-runtime.ts";
import { mentionedPaths, userShellCommand } from "./user-shell.ts";
import type { Choices, CommandContext, SessionFacts, SlashCommand } from "./slash-command.ts";

export interface Compaction {
  tokensBefore: number;
  tokensAfter: number;
  /** prune, summary, window; "none" when there was nothing to condense. */
  method?: string;
  /** Whole turns kept after the summary or window. */
  keptTurns?: number;
}

export type SubmissionStatus = "done" | "interrupted" | "failed";

export interface SubmissionOutcome {
  id: string;
  status: SubmissionStatus;
  /** The agent run's result, when the submission ran the agent. */
  result?: RunResult;
  compaction?: Compaction;
  /** What went wrong (a command's refusal, a failed compaction, a usage error). */
  error?: string;
  /** Exit code a usage problem asks for (2), when error is set by one. */
  errorCode?: number;
  /** `/exit` was asked for. */
  exit: boolean;
}

/** What the executor tells its UI, besides the agent's own events. */
export type ExecutorEvent =
  | AgentEvent
  | { type: "submission_start"; id: string; text: string }
  /** `choices`: the same list to pick from (the interactive session opens a picker instead of the lines). */
  | { type: "command_output"; id: string; lines: string[]; is_error: boolean; choices?: Choices }
  | { type: "model_changed"; model: string }
  | { type: "session_changed"; session_id: string; previous: string }
  | { type: "compacted"; id: string; tokens_before: number; tokens_after: number }
  | { type: "submission_end"; outcome: SubmissionOutcome };

export interface ExecutorOptions {
  config: Config;
  /** Opens a runtime whose agent events go to the given sink (new session, or a resumed one). */
  open(emit: (event: AgentEvent) => void, resume?: ResumeTarget): Promise<SessionRuntime>;
  resume?: ResumeTarget;
  emit(event: ExecutorEvent): void;
  commands?: readonly SlashCommand[];
}

export interface SubmitInput {
  text: string;
  /** Image paths attached to a prompt (headless --image). */
  images?: string[];
  /** `!command` runs in the session's shell (the interactive session's bash mode), not as a prompt. */
  shellMode?: boolean;
  /** `@path` mentions attach the files' contents, read through Read (the interactive session). */
  attachMentions?: boolean;
}

export interface Executor {
  readonly runtime: SessionRuntime;
  /** Queues one submission; it runs after those before it. Returns its id. */
  submit(input: SubmitInput): string;
  /** Resolves when the submission's work is done (at once with the outcome for a finished one it still knows). */
  waitFor(id: string): Promise<SubmissionOutcome>;
  /** Cancels one submission (the running one when no id is given); queued ones are skipped. */
  interrupt(id?: string): void;
  /** Cancels every submission, running and queued. */
  interruptAll(): void;
  /** The id of the running submission, if any. */
  running(): string | undefined;
  /** Submissions the executor still holds (running or queued). Zero when idle. */
  pending(): number;
  facts(): SessionFacts;
  close(): Promise<void>;
  killNow(): void;
}

interface Tracked {
  id: string;
  text: string;
  images?: string[];
  shellMode?: boolean;
  attachMentions?: boolean;
  controller: AbortController;
  done: Promise<SubmissionOutcome>;
}

const RECENT_OUTCOMES = 16;

/** Whether a `provider/model` spec has a price (the table's or the user's). */
function priced(spec: string, config: Config): boolean {
  const at = spec.indexOf("/");
  const provider = spec.slice(0, at) === "openai" ? "openai" : "anthropic";
  return priceFor(provider, spec.slice(at + 1), config.price) !== undefined;
}

export async function createExecutor(opts: ExecutorOptions): Promise<Executor> {
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let costUsd = 0;
  let costKnown = true;
  let contextTokens = 0;
  const tasksRunning = new Set<string>();
  const commands = opts.commands ?? COMMANDS;

  // Watches the agent's events for the counters /cost and /status show, then passes them on.
  const sink = (event: AgentEvent) => {
    if (event.type === "assistant" && event.message.usage && !event.parent_tool_use_id) {
      const u = event.message.usage;
      contextTokens = u.input_tokens + u.output_tokens;
    } else if (event.type === "task_start") tasksRunning.add(event.id);
    else if (event.type === "task_end") tasksRunning.delete(event.id);
    else if (event.type === "compact_boundary") contextTokens = event.tokens_after;
    else if (event.type === "result") {
      tasksRunning.clear();
      addUsage(usage, event.result.usage);
      // A run of a model without a price leaves the session's dollars unknown.
      if (event.result.total_cost_usd === undefined) costKnown = false;
      else costUsd += event.result.total_cost_usd;
    }
    opts.emit(event);
  };

  let runtime = await opts.open(sink, opts.resume);
  // /model may always go back to this, whether or not the provider's list names it.
  const startModel = runtime.model;
  contextTokens = lastContextTokens(runtime.recent(RESUME_SCAN));
  // The model picked with /model in this process, if any (see switchSession).
  let chosenModel: string | undefined;
  const tracked = new Map<string, Tracked>();
  // The outcomes (plain data) of the last few finished submissions, for a waitFor that comes late.
  const recent = new Map<string, SubmissionOutcome>();
  let tail: Promise<unknown> = Promise.resolve();
  let current: string | undefined;
  let counter = 0;
  let closed = false;

  const facts = (): SessionFacts => {
    const r = runtime.facts();
    const rss = Math.round(process.memoryUsage.rss() / 1048576);
    return {
      model: runtime.model,
      sessionId: runtime.sessionId,
      cwd: opts.config.cwd,
      usage: { ...usage },
      ...(costKnown && priced(runtime.model, opts.config) ? { costUsd } : {}),
      contextTokens,
      contextWindow: contextWindowFor(runtime.model, opts.config.context.window),
      messagesInMemory: r.messagesInMemory,
      shells: r.shells,
      memory: { peakHeapMb: r.memory.peakHeapMb, peakRssMb: Math.max(r.memory.peakRssMb, rss), rssMb: rss },
      tasksRunning: tasksRunning.size,
      sandbox: r.sandbox,
      permissionMode: r.permissionMode,
    };
  };

  const commandContext = (signal: AbortSignal): CommandContext => ({
    facts,
    listModels: (provider, s) =>
      listModels(provider, provider === "anthropic" ? opts.config.anthropic : opts.config.openai, s),
    listSessions: async () => (await listSessions(opts.config.home)).filter((s) => s.cwd === opts.config.cwd),
    commands: () => commands,
    mcpServers: () => runtime.mcpServers(signal),
    startModel,
    signal,
  });

  // Switching sessions opens the new one before closing the old: a failure leaves the old in place.
  async function switchSession(resume: ResumeTarget | undefined): Promise<void> {
    const next = await opts.open(sink, resume);
    const previous = runtime;
    // /clear keeps the model in use. /resume opens the session on the model it recorded (or -m's),
    // unless one was picked with /model here: that stays chosen for the rest of this process.
    const carry = resume ? chosenModel : previous.model;
    if (carry && next.model !== carry) {
      try {
        next.setModel(carry);
      } catch (err) {
        await next.close();
        throw err;
      }
    }
    runtime = next;
    usage.input_tokens = 0;
    usage.output_tokens = 0;
    usage.cache_read_input_tokens = 0;
    usage.cache_creation_input_tokens = 0;
    costUsd = 0;
    costKnown = true;
    contextTokens = lastContextTokens(next.recent(RESUME_SCAN));
    await previous.close();
    opts.emit({ type: "session_changed", session_id: next.sessionId, previous: previous.sessionId });
  }

  async function runAction(t: Tracked, action: InputAction, outcome: SubmissionOutcome): Promise<void> {
    const signal = t.controller.signal;
    switch (action.kind) {
      case "RunAgent": {
        const content: ContentBlock[] = [{ type: "text", text: action.text }];
        for (const path of action.images ?? []) content.push(await runtime.attachImage(path));
        for (const path of t.attachMentions ? mentionedPaths(action.text) : []) {
          const file = await runtime.readMention(path, signal);
          if (signal.aborted) throw new InterruptedError();
          if (file) content.push({ type: "text", text: file });
        }
        const result = await runtime.submit(content, signal);
        outcome.result = result;
        if (result.subtype === "interrupted" || signal.aborted) outcome.status = "interrupted";
        else if (result.is_error) outcome.status = "failed";
        return;
      }
      case "RunCompact": {
        const c = await runtime.compact(action.focus, signal, action.keepLast);
        if (signal.aborted) throw new InterruptedError();
        // A condense that would not shrink the context changed nothing: not a success.
        if (c.failure) throw new SynapseError(`compact failed: ${c.failure}`, EXIT.failed);
        outcome.compaction = {
          tokensBefore: c.tokensBefore,
          tokensAfter: c.tokensAfter,
          method: c.method,
          keptTurns: c.keptTurns,
        };
        contextTokens = c.tokensAfter;
        opts.emit({ type: "compacted", id: t.id, tokens_before: c.tokensBefore, tokens_after: c.tokensAfter });
        return;
      }
      case "ChangeModel":
        runtime.setModel(action.model);
        chosenModel = runtime.model;
        opts.emit({ type: "model_changed", model: runtime.model });
        return;
      case "ResetSession":
        await switchSession(undefined);
        return;
      case "ResumeSession":
        await switchSession({ id: action.id });
        return;
      case "RunShell":
        await runtime.runShell(action.command, signal);
        if (signal.aborted) outcome.status = "interrupted";
        return;
    }
  }

  async function run(t: Tracked): Promise<SubmissionOutcome> {
    const outcome: SubmissionOutcome = { id: t.id, status: "done", exit: false };
    const signal = t.controller.signal;
    current = t.id;
    opts.emit({ type: "submission_start", id: t.id, text: t.text });
    try {
      if (signal.aborted) throw new InterruptedError();
      const shellCommand = t.shellMode ? userShellCommand(t.text) : undefined;
      const dispatched = shellCommand
        ? { lines: [], actions: [{ kind: "RunShell" as const, command: shellCommand }] }
        : await dispatch(t.text, commandContext(signal), t.images);
      if (dispatched.lines.length) {
        const choices = "choices" in dispatched ? dispatched.choices : undefined;
        const output = { type: "command_output" as const, id: t.id, lines: dispatched.lines, is_error: false };
        opts.emit(choices ? { ...output, choices } : output);
      }
      if (dispatched.error) {
        outcome.status = "failed";
        outcome.error = dispatched.error;
        outcome.errorCode = EXIT.usage;
        opts.emit({ type: "command_output", id: t.id, lines: [dispatched.error], is_error: true });
      }
      outcome.exit = Boolean(dispatched.exit);
      for (const action of dispatched.actions) {
        if (signal.aborted) throw new InterruptedError();
        await runAction(t, action, outcome);
        if (outcome.status !== "done") break;
      }
    } catch (err) {
      if (signal.aborted || err instanceof InterruptedError) outcome.status = "interrupted";
      else {
        outcome.status = "failed";
        outcome.error = errorMessage(err);
        if (err instanceof SynapseError) outcome.errorCode = err.exitCode;
        opts.emit({ type: "command_output", id: t.id, lines: [outcome.error], is_error: true });
      }
    } finally {
      current = undefined;
      tracked.delete(t.id);
    }
    recent.set(t.id, outcome);
    if (recent.size > RECENT_OUTCOMES) recent.delete(recent.keys().next().value!);
    opts.emit({ type: "submission_end", outcome });
    return outcome;
  }

  return {
    get runtime() {
      return runtime;
    },

    submit(input) {
      if (closed) throw new Error("the executor is closed");
      const id = `s${++counter}`;
      const controller = new AbortController();
      const { text, images, shellMode, attachMentions } = input;
      const t = { id, text, images, shellMode, attachMentions, controller } as Tracked;
      // One at a time, in order: a chained promise, never a timer or a listener left behind.
      t.done = tail.then(() => run(t));
      tail = t.done.catch(() => undefined);
      tracked.set(id, t);
      return id;
    },

    async waitFor(id) {
      const t = tracked.get(id);
      const done = recent.get(id);
      if (!t && done) return done;
      if (!t) throw new Error(`unknown submission ${id} (only the last ${RECENT_OUTCOMES} outcomes are kept)`);
      return t.done;
    },

    interrupt(id) {
      const target = id ?? current;
      if (target) tracked.get(target)?.controller.abort();
    },

    interruptAll() {
      for (const t of tracked.values()) t.controller.abort();
    },

    running: () => current,
    pending: () => tracked.size,
    facts,

    async close() {
      if (closed) return;
      closed = true;
      for (const t of tracked.values()) t.controller.abort();
      await tail;
      await runtime.close();
    },

    killNow() {
      runtime.killNow();
    },
  };
}
