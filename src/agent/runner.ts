// The turn loop: ask the model, run the tools it calls, feed the results back, until it answers
// without tools, the turn budget runs out, or the run is interrupted.

import type { Config } from "../config/config.ts";
import { streamWithRetry } from "../llm/retry.ts";
import { addUsage } from "../llm/pricing.ts";
import type { AssistantTurn, ModelRequest, Provider, ToolSpec } from "../llm/types.ts";
import { InterruptedError, ProviderError, errorMessage } from "../protocol/errors.ts";
import type { EventSink, ResultSubtype } from "../protocol/events.ts";
import {
  type ContentBlock,
  FAILED_PROMPT,
  INTERRUPTED_NOTE,
  INTERRUPTED_PROMPT,
  type Message,
  type ToolUseBlock,
  type Usage,
  newMessageId,
  textOf,
} from "../protocol/message.ts";
import { imageBytes } from "../context/image-context.ts";
import type { SessionStore } from "../store/types.ts";
import { type Tool, type ToolServices, toolLimits } from "../tools/types.ts";
import { ContextManager } from "../context/condense.ts";
import { LoopDetector, noteLoops } from "./loop-detect.ts";
import {
  OUTPUT_LIMIT_STOP,
  hitOutputLimit,
  noteCutCalls,
  outputLimitNote,
  outputLimitWarning,
} from "./output-limit.ts";
import type { TaskLauncher } from "./sub-agents.ts";
import { runToolCalls } from "./tool-batch.ts";
import { runtime } from "../runtime/runtime.ts";
import { BUDGET_STOP, Budget } from "./budget.ts";
import { taskWarmUp } from "./task-warm-up.ts";
import { MAX_STOP_CONTINUATIONS, type RunHooks } from "../hooks/index.ts";
import type { AnswerJudge } from "./structured-output.ts";

/** Thrown inside a send that would pass --max-budget-usd: nothing was sent. */
class BudgetStop extends Error {}

// Bytes of requests sent between forced full collections (see the turn loop).
const COLLECT_AFTER_BYTES = 2 * 1024 * 1024;

export interface RunInput {
  config: Config;
  provider: Provider;
  store: SessionStore;
  tools: ReadonlyMap<string, Tool>;
  services: ToolServices;
  systemPrompt: string;
  prompt: ContentBlock[];
  /** Keeps the context within the model's window; the runtime's, so /compact and the memory monitor share it. */
  context?: ContextManager;
  taskId: string;
  signal: AbortSignal;
  emit: EventSink;
  /** Runs `task:*` calls as sub-agents; absent inside a sub-agent (no nesting). */
  tasks?: TaskLauncher;
  /** Brings `tools` up to date before each request (MCP servers' changed lists); true when it changed them. */
  refreshTools?(): Promise<boolean>;
  /** The session's hooks (src/hooks): UserPromptSubmit, Stop and the tool events. */
  hooks?: RunHooks;
  /** Awaited before a turn's tool calls run (the session's sandbox probe: a request does not need it). */
  beforeTools?(): Promise<void>;
  /** Structured output (--json-schema): judges each final answer; an invalid one is sent back. */
  answerJudge?: AnswerJudge;
}

export interface RunOutput {
  subtype: ResultSubtype;
  result: string;
  numTurns: number;
  usage: Usage;
  /** The last turn's stop reason, when the run ended on a model turn. */
  stopReason?: string;
  /** The final answer's JSON value, when `answerJudge` found it valid. */
  structuredOutput?: unknown;
}

export async function runAgent(input: RunInput): Promise<RunOutput> {
  const { config, provider, store, tools, signal, emit } = input;
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const specsOf = (): ToolSpec[] =>
    [...tools.values()].map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  let specs = specsOf();
  let numTurns = 0;
  let lastText = "";
  // This turn's streamed text: kept, marked, when the user interrupts the stream.
  let partial = "";

  const flush = flusher(store, emit);

  const context =
    input.context ?? new ContextManager({ config, provider, store, system: input.systemPrompt, tools: specs, emit });
  const tasks = input.tasks;
  // Summary calls and sub-agents spend from the run's budget too.
  const spentBeside = [() => context.summaryUsage, ...(tasks ? [() => tasks.usage()] : [])];
  const budget = Budget.of(config, provider, spentBeside);
  tasks?.limitSpend(budget ? () => budget.remaining(usage) : undefined);
  const loops = new LoopDetector(config.loopLimit);
  const submitted = await input.hooks?.userPromptSubmit?.(textOf({ content: input.prompt }), signal);
  if (submitted?.block) {
    const result = `The prompt was blocked by a UserPromptSubmit hook: ${submitted.block}`;
    return { subtype: "error_during_execution", result, numTurns, usage };
  }
  const content = submitted?.context ? [...input.prompt, hookContext(submitted.context)] : input.prompt;
  let stopsHeard = 0;
  const prompt: Message = { id: newMessageId(), role: "user", content, ts: Date.now() };
  store.append(prompt);
  context.noteAppended(prompt);
  /** Whether anything follows the prompt in the store (an answer, then its calls' results). */
  let answered = false;
  /**
   * A prompt left without an answer (interrupted, or the request failed) gets a mark after it:
   * without one the next prompt would read as this one's tail. After an answer, the calls'
   * results already end the turn.
   */
  const markUnanswered = async (text: string) => {
    const mark: Message = { id: newMessageId(), role: "user", content: [{ type: "text", text }], ts: Date.now() };
    store.append(mark);
    context.noteAppended(mark);
    await flush();
  };

  try {
    while (true) {
      if (signal.aborted) throw new InterruptedError();
      if (numTurns >= config.maxTurns) {
        return {
          subtype: "error_max_turns",
          result: lastText || `Reached the maximum of ${config.maxTurns} turns.`,
          numTurns,
          usage,
        };
      }
      numTurns++;
      await flush();
      if (await input.refreshTools?.()) specs = specsOf();
      // The context manager builds the messages (condensing first when needed) and sends again
      // with a condensed context when the API answers that the prompt is too long.
      const turn = await context.ask(signal, (messages) => {
        // Checked with the context as it will be sent (condensed first, when due).
        if (budget?.wouldPass(context.tokensOf(messages), usage)) throw new BudgetStop();
        return streamTurn(input, messages, specs, {
          onText: (text) => {
            partial += text;
          },
          onRetry: () => {
            partial = "";
          },
        });
      });
      budget?.noteSent(turn.usage.input_tokens);
      // Each request leaves its size in garbage copies (JSON, wire objects); once a few megabytes
      // of them have built up, a full collection keeps peak RSS flat however long the session.
      // It costs a few ms, paid once per COLLECT_AFTER_BYTES sent rather than every turn.
      if (context.garbageDue(imageBytes(context.lastSent), COLLECT_AFTER_BYTES)) runtime.gc();
      partial = "";
      addUsage(usage, turn.usage);
      const assistant = assistantMessage(turn);
      store.append(assistant);
      answered = true;
      emit({ type: "assistant", message: assistant });
      const text = textOf(assistant);
      if (text.trim()) lastText = text;

      const calls = assistant.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
      const cut = hitOutputLimit(turn.stopReason);
      if (!calls.length) {
        await flush();
        // A final answer cut at the output limit is not a success: scripts must not take half an answer.
        if (cut) return { subtype: "error_max_tokens", result: text, numTurns, usage, stopReason: OUTPUT_LIMIT_STOP };
        const verdict = input.answerJudge?.verdict(text);
        if (verdict?.kind === "retry") {
          // A user message after the answer: the conversation stays well-formed, and the model sees why.
          appendUserText(input, verdict.feedback);
          await flush();
          continue;
        }
        const stopReason = turn.stopReason;
        if (verdict?.kind === "exhausted") {
          const subtype = "error_max_structured_output_retries";
          return { subtype, result: verdict.reason, numTurns, usage, stopReason };
        }
        const goOn = await stopFeedback(input, stopsHeard, signal);
        // Ctrl-C while a Stop hook ran: the run was stopped, not finished.
        if (signal.aborted) throw new InterruptedError();
        if (goOn) {
          stopsHeard++;
          appendUserText(input, goOn);
          await flush();
          continue;
        }
        const structured = verdict ? { structuredOutput: verdict.value } : {};
        return { subtype: "success", result: text, numTurns, usage, stopReason, ...structured };
      }
      if (cut) emit({ type: "warning", message: outputLimitWarning(config.maxTokens) });
      const loop = loops.turn(text, calls);
      if (loop.stop) {
        // Every call still gets a result, so the session resumes as a well-formed conversation.
        const notRun = `Not run: synapse stopped a loop (${loop.stop}).`;
        appendResults(
          input,
          calls.map((c): ContentBlock => ({ type: "tool_result", tool_use_id: c.id, content: notRun, is_error: true })),
        );
        await flush();
        return { subtype: "error_during_execution", result: `stopped a loop: ${loop.stop}`, numTurns, usage };
      }

      await input.beforeTools?.();
      const results = await runToolCalls({
        calls,
        tools,
        signal,
        emit,
        tasks: input.tasks,
        hooks: input.hooks,
        context: (call) => toolContext(input, call),
      });
      const noted = noteLoops(results, loop.notes);
      appendResults(
        input,
        cut ? noteCutCalls(calls, noted, outputLimitNote(config.maxTokens), (c) => c.raw_input !== undefined) : noted,
      );
      await flush();
    }
  } catch (err) {
    if (err instanceof InterruptedError || signal.aborted) {
      if (partial.trim()) {
        const cut = interruptedAnswer(partial);
        store.append(cut);
        emit({ type: "assistant", message: cut });
        lastText = partial;
      } else if (!answered) {
        await markUnanswered(INTERRUPTED_PROMPT);
      }
      return { subtype: "interrupted", result: lastText || "Interrupted.", numTurns, usage };
    }
    if (err instanceof BudgetStop && budget) {
      // The session is whole (every tool call has its result) and saved by the caller's flush; a
      // prompt stopped before its first answer is marked like a failed one.
      if (!answered) await markUnanswered(FAILED_PROMPT);
      const result = budget.stopMessage(budget.spent(usage));
      return { subtype: BUDGET_STOP, result, numTurns: numTurns - 1, usage };
    }
    if (err instanceof ProviderError) {
      if (!answered) await markUnanswered(FAILED_PROMPT);
      return { subtype: "error_during_execution", result: err.message, numTurns, usage };
    }
    return { subtype: "error_during_execution", result: `Internal error: ${errorMessage(err)}`, numTurns, usage };
  }
}

/** One model turn, streamed with retries: `onText` sees each piece, `onRetry` an attempt started again. */
function streamTurn(
  input: RunInput,
  messages: Message[],
  tools: ToolSpec[],
  hooks: { onText(text: string): void; onRetry(): void },
) {
  const { config, provider, store, signal, emit } = input;
  const request: ModelRequest = {
    model: provider.model,
    system: input.systemPrompt,
    messages,
    tools,
    maxTokens: config.maxTokens,
    signal,
    cacheKey: store.id,
    loadImage: (ref) => store.loadImage(ref),
  };
  const onText = (text: string) => {
    hooks.onText(text);
    emit({ type: "text_delta", text });
  };
  // Task calls on the way: the pool's threads start while the model still writes their prompts.
  const tasks = input.tasks;
  const onToolInput = tasks ? taskWarmUp((count) => tasks.warm(count)) : undefined;
  return streamWithRetry(
    provider,
    request,
    { onText, ...(onToolInput ? { onToolInput } : {}) },
    {
      maxRetries: config.maxRetries,
      baseMs: config.retryBaseMs,
      maxMs: config.retryMaxMs,
      idleTimeoutMs: config.streamIdleMs,
      onRetry: (info) => {
        hooks.onRetry();
        emit({ type: "turn_retry", attempt: info.attempt, delay_ms: info.delayMs, reason: info.reason });
      },
    },
  );
}

/** What a tool call of this run gets: its folder, limits, services and where its live output goes. */
function toolContext(input: RunInput, call: ToolUseBlock) {
  const { config, signal, emit } = input;
  return {
    cwd: config.cwd,
    signal,
    taskId: input.taskId,
    limits: toolLimits(config),
    services: input.services,
    progress: (chunk: string) =>
      emit({ type: "tool_progress", id: call.id, name: call.name, text: chunk.toWellFormed() }),
    warn: (message: string) => emit({ type: "warning", message }),
  };
}

/** The user message carrying a turn's tool results, stored and announced. */
function appendResults(input: RunInput, content: ContentBlock[]): void {
  const user: Message = { id: newMessageId(), role: "user", content, ts: Date.now() };
  input.store.append(user);
  input.emit({ type: "user", message: user });
}

/** A user message of text the run adds itself (a structured answer's errors), stored and announced. */
function appendUserText(input: RunInput, text: string): void {
  const user: Message = { id: newMessageId(), role: "user", content: [{ type: "text", text }], ts: Date.now() };
  input.store.append(user);
  input.emit({ type: "user", message: user });
}

/** UserPromptSubmit and SessionStart hooks' context, after the prompt. */
function hookContext(text: string): ContentBlock {
  return { type: "text", text: `<hook-context>\n${text.toWellFormed()}\n</hook-context>` };
}

/** A Stop hook's reason to go on, as the message the model gets; undefined: the run ends. */
async function stopFeedback(input: RunInput, heard: number, signal: AbortSignal): Promise<string | undefined> {
  const reason = await input.hooks?.stop?.(heard > 0, signal);
  if (!reason) return undefined;
  if (heard >= MAX_STOP_CONTINUATIONS) {
    input.emit({ type: "warning", message: `a Stop hook kept the run going ${heard} times: it ends here` });
    return undefined;
  }
  return `Stop hook feedback: ${reason}`;
}

/** The answer streamed so far, kept and marked, when the user interrupts it. */
function interruptedAnswer(partial: string): Message {
  const text = `${partial.toWellFormed()}${INTERRUPTED_NOTE}`;
  return {
    id: newMessageId(),
    role: "assistant",
    content: [{ type: "text", text }],
    ts: Date.now(),
    stop_reason: "interrupted",
  };
}

/** The model's turn as a stored message. */
function assistantMessage(turn: AssistantTurn): Message {
  return {
    id: newMessageId(),
    role: "assistant",
    // A model's JSON can carry a lone surrogate escape; sent back, the API would reject it.
    content: turn.content.map((b) => (b.type === "text" ? { ...b, text: b.text.toWellFormed() } : b)),
    ts: Date.now(),
    usage: turn.usage,
    stop_reason: turn.stopReason,
  };
}

/**
 * Writes the store out. A full disk must not end the run: the messages stay in memory and the
 * next flush retries; each distinct failure is warned about once.
 */
function flusher(store: SessionStore, emit: EventSink): () => Promise<void> {
  const reported = new Set<string>();
  return async () => {
    try {
      await store.flush();
    } catch (err) {
      const message = errorMessage(err);
      if (!reported.has(message)) emit({ type: "warning", message });
      reported.add(message);
    }
  };
}
