// The turn loop: ask the model, run the tools it calls, feed the results back, until it answers
// without tools, the turn budget runs out, or the run is interrupted.

import { addUsage } from "../llm/pricing.ts";
import type { AssistantTurn, ToolSpec } from "../llm/types.ts";
import { InterruptedError, ProviderError, errorMessage } from "../protocol/errors.ts";
import {
  type ContentBlock,
  FAILED_PROMPT,
  INTERRUPTED_PROMPT,
  type Message,
  type ToolUseBlock,
  type Usage,
  newMessageId,
  textOf,
} from "../protocol/message.ts";
import { imageBytes } from "../context/image-context.ts";
import { ContextManager } from "../context/condense.ts";
import { LoopDetector, noteLoops } from "./loop-detect.ts";
import {
  OUTPUT_LIMIT_STOP,
  hitOutputLimit,
  noteCutCalls,
  outputLimitNote,
  outputLimitWarning,
} from "./output-limit.ts";
import { runToolCalls } from "./tool-batch.ts";
import { runtime } from "../runtime/runtime.ts";
import { BUDGET_STOP, Budget } from "./budget.ts";
import { stopFeedback, streamTurn, toolContext } from "./turn-io.ts";
import type { RunInput, RunOutput } from "./run-input.ts";
import { assistantMessage, flusher, hookContext, interruptedAnswer, userMessage } from "./run-messages.ts";
import { startupMark } from "../runtime/startup-trace.ts";

/** Thrown inside a send that would pass --max-budget-usd: nothing was sent. */
class BudgetStop extends Error {}

// Bytes of requests sent between forced full collections (see the turn loop).
const COLLECT_AFTER_BYTES = 2 * 1024 * 1024;

export type { RunInput, RunOutput } from "./run-input.ts";

export async function runAgent(input: RunInput): Promise<RunOutput> {
  const run = new AgentRun(input);
  return (await run.submitPrompt()) ?? (await run.loop());
}

/** One run's state across its turns; each method is one step of the loop. */
class AgentRun {
  private readonly input: RunInput;
  private readonly usage: Usage = { input_tokens: 0, output_tokens: 0 };
  private specs: ToolSpec[];
  private numTurns = 0;
  private lastText = "";
  // This turn's streamed text: kept, marked, when the user interrupts the stream.
  private partial = "";
  /** Whether anything follows the prompt in the store (an answer, then its calls' results). */
  private answered = false;
  private stopsHeard = 0;
  private readonly flush: () => Promise<void>;
  private readonly context: ContextManager;
  private readonly budget: Budget | undefined;
  private readonly loops: LoopDetector;

  constructor(input: RunInput) {
    const { config, provider, store, emit } = input;
    this.input = input;
    this.specs = this.specsOf();
    this.flush = flusher(store, emit);
    const context =
      input.context ??
      new ContextManager({ config, provider, store, system: input.systemPrompt, tools: this.specs, emit });
    this.context = context;
    const tasks = input.tasks;
    // Summary calls and sub-agents spend from the run's budget too.
    const spentBeside = [() => context.summaryUsage, ...(tasks ? [() => tasks.usage()] : [])];
    const budget = Budget.of(config, provider, spentBeside);
    this.budget = budget;
    tasks?.limitSpend(budget ? () => budget.remaining(this.usage) : undefined);
    this.loops = new LoopDetector(config.loopLimit);
  }

  /** The UserPromptSubmit hook, then the prompt stored; a blocked prompt ends the run before it starts. */
  async submitPrompt(): Promise<RunOutput | undefined> {
    const { prompt, hooks, signal } = this.input;
    const submitted = await hooks?.userPromptSubmit?.(textOf({ content: prompt }), signal);
    // Stopped by a hook: the prompt is neither stored nor sent, as when it is blocked.
    if (submitted?.stop) return this.hookStopped(submitted.stop);
    if (submitted?.block) {
      const result = `The prompt was blocked by a UserPromptSubmit hook: ${submitted.block}`;
      return { subtype: "error_during_execution", result, numTurns: this.numTurns, usage: this.usage };
    }
    const content = submitted?.context ? [...prompt, hookContext(submitted.context)] : prompt;
    const message: Message = { id: newMessageId(), role: "user", content, ts: Date.now() };
    this.input.store.append(message);
    this.context.noteAppended(message);
    return undefined;
  }

  /** Turn after turn until one ends the run. */
  async loop(): Promise<RunOutput> {
    try {
      while (true) {
        const end = await this.turn();
        if (end) return end;
      }
    } catch (err) {
      return await this.ended(err);
    }
  }

  /** One turn: the request, the answer stored, then its end or its tool calls; a result ends the run. */
  private async turn(): Promise<RunOutput | undefined> {
    const { config, signal } = this.input;
    if (signal.aborted) throw new InterruptedError();
    if (this.numTurns >= config.maxTurns) {
      const result = this.lastText || `Reached the maximum of ${config.maxTurns} turns.`;
      return { subtype: "error_max_turns", result, numTurns: this.numTurns, usage: this.usage };
    }
    this.numTurns++;
    await this.flush();
    startupMark("prompt-saved");
    if (await this.input.refreshTools?.()) this.specs = this.specsOf();
    this.context.useTools(this.specs);
    const turn = await this.ask();
    const assistant = assistantMessage(turn);
    this.input.store.append(assistant);
    this.answered = true;
    this.input.emit({ type: "assistant", message: assistant });
    const text = textOf(assistant);
    if (text.trim()) this.lastText = text;

    const calls = assistant.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
    const cut = hitOutputLimit(turn.stopReason);
    if (!calls.length) return await this.finalAnswer(turn, text, cut);
    return await this.runCalls(calls, text, cut);
  }

  /** The model's turn, streamed; its usage counted. */
  private async ask(): Promise<AssistantTurn> {
    const { input, context, budget } = this;
    // The context manager builds the messages (condensing first when needed) and sends again
    // with a condensed context when the API answers that the prompt is too long.
    const turn = await context.ask(input.signal, (messages) => {
      // Checked with the context as it will be sent (condensed first, when due).
      if (budget?.wouldPass(context.tokensOf(messages), this.usage)) throw new BudgetStop();
      return streamTurn(input, messages, this.specs, {
        onText: (text) => {
          this.partial += text;
        },
        onRetry: () => {
          this.partial = "";
        },
      });
    });
    budget?.noteSent(turn.usage.input_tokens);
    // Each request leaves its size in garbage copies (JSON, wire objects); once a few megabytes
    // of them have built up, a full collection keeps peak RSS flat however long the session.
    // It costs a few ms, paid once per COLLECT_AFTER_BYTES sent rather than every turn.
    if (context.garbageDue(imageBytes(context.lastSent), COLLECT_AFTER_BYTES)) runtime.gc();
    this.partial = "";
    addUsage(this.usage, turn.usage);
    return turn;
  }

  /** An answer without tool calls ends the run, unless the structured-output check or a Stop hook sends it on. */
  private async finalAnswer(turn: AssistantTurn, text: string, cut: boolean): Promise<RunOutput | undefined> {
    const { numTurns, usage } = this;
    await this.flush();
    // A final answer cut at the output limit is not a success: scripts must not take half an answer.
    if (cut) return { subtype: "error_max_tokens", result: text, numTurns, usage, stopReason: OUTPUT_LIMIT_STOP };
    const verdict = this.input.answerJudge?.verdict(text);
    if (verdict?.kind === "retry") {
      // A user message after the answer: the conversation stays well-formed, and the model sees why.
      await this.sendUserText(verdict.feedback);
      return undefined;
    }
    const stopReason = turn.stopReason;
    if (verdict?.kind === "exhausted") {
      const subtype = "error_max_structured_output_retries";
      return { subtype, result: verdict.reason, numTurns, usage, stopReason };
    }
    const heard = await this.stopHookGoesOn();
    if (heard === "goes-on") return undefined;
    const structured = verdict ? { structuredOutput: verdict.value } : {};
    // A Stop hook's `"continue": false` only keeps the run from going on: the answer stands.
    const stopped = heard === "stopped" ? { terminalReason: "hook_stopped" as const } : {};
    return { subtype: "success", result: text, numTurns, usage, stopReason, ...structured, ...stopped };
  }

  /** Whether a Stop hook sent the run on (its reason is then the model's next message) or stopped it. */
  private async stopHookGoesOn(): Promise<"goes-on" | "ends" | "stopped"> {
    const { signal } = this.input;
    const heard = await stopFeedback(this.input, this.stopsHeard, signal);
    // Ctrl-C while a Stop hook ran: the run was stopped, not finished.
    if (signal.aborted) throw new InterruptedError();
    if (heard.stop) {
      this.input.emit({ type: "warning", message: `a Stop hook stopped the agent: ${heard.stop}` });
      return "stopped";
    }
    if (!heard.goOn) return "ends";
    this.stopsHeard++;
    await this.sendUserText(heard.goOn);
    return "goes-on";
  }

  /** A turn's tool calls run and their results stored; a loop the detector stops ends the run. */
  private async runCalls(calls: ToolUseBlock[], text: string, cut: boolean): Promise<RunOutput | undefined> {
    const { input } = this;
    const { config, tools, signal, emit } = input;
    if (cut) emit({ type: "warning", message: outputLimitWarning(config.maxTokens) });
    const loop = this.loops.turn(text, calls);
    if (loop.stop) return await this.stopLoop(calls, loop.stop);

    await input.beforeTools?.();
    const { results, stopped } = await runToolCalls({
      calls,
      tools,
      signal,
      emit,
      tasks: input.tasks,
      hooks: input.hooks,
      context: (call) => toolContext(input, call),
    });
    const noted = noteLoops(results, loop.notes);
    this.appendUser(
      cut ? noteCutCalls(calls, noted, outputLimitNote(config.maxTokens), (c) => c.raw_input !== undefined) : noted,
    );
    await this.flush();
    // Every call has its result (the session resumes well-formed); no request follows.
    return stopped === undefined ? undefined : this.hookStopped(stopped);
  }

  /**
   * A hook said `"continue": false`: the agent stops, the user is told its reason. Not a success:
   * the work the prompt asked for was cut short (a script's `&&` must not go on), as Claude Code's
   * `terminal_reason` "hook_stopped" says.
   */
  private hookStopped(reason: string): RunOutput {
    this.input.emit({ type: "warning", message: `a hook stopped the agent: ${reason}` });
    const result = `Stopped by a hook: ${reason}`;
    const { numTurns, usage } = this;
    return { subtype: "error_during_execution", result, numTurns, usage, terminalReason: "hook_stopped" };
  }

  /** The run stopped in a loop: every call still gets a result, so the session resumes well-formed. */
  private async stopLoop(calls: ToolUseBlock[], why: string): Promise<RunOutput> {
    const notRun = `Not run: synapse stopped a loop (${why}).`;
    this.appendUser(
      calls.map((c): ContentBlock => ({ type: "tool_result", tool_use_id: c.id, content: notRun, is_error: true })),
    );
    await this.flush();
    const result = `stopped a loop: ${why}`;
    return { subtype: "error_during_execution", result, numTurns: this.numTurns, usage: this.usage };
  }

  /** How a step that threw ends the run: interrupted, over budget, the API failing, or a bug. */
  private async ended(err: unknown): Promise<RunOutput> {
    const { numTurns, usage, budget } = this;
    if (err instanceof InterruptedError || this.input.signal.aborted) return await this.interrupted();
    if (err instanceof BudgetStop && budget) {
      // The session is whole (every tool call has its result) and saved by the caller's flush; a
      // prompt stopped before its first answer is marked like a failed one.
      if (!this.answered) await this.markUnanswered(FAILED_PROMPT);
      const result = budget.stopMessage(budget.spent(usage));
      return { subtype: BUDGET_STOP, result, numTurns: numTurns - 1, usage };
    }
    if (err instanceof ProviderError) {
      if (!this.answered) await this.markUnanswered(FAILED_PROMPT);
      return { subtype: "error_during_execution", result: err.message, numTurns, usage };
    }
    return { subtype: "error_during_execution", result: `Internal error: ${errorMessage(err)}`, numTurns, usage };
  }

  /** Interrupted: the answer streamed so far is kept, marked; a prompt with no answer gets a mark. */
  private async interrupted(): Promise<RunOutput> {
    if (this.partial.trim()) {
      const cut = interruptedAnswer(this.partial);
      this.input.store.append(cut);
      this.input.emit({ type: "assistant", message: cut });
      this.lastText = this.partial;
    } else if (!this.answered) {
      await this.markUnanswered(INTERRUPTED_PROMPT);
    }
    return {
      subtype: "interrupted",
      result: this.lastText || "Interrupted.",
      numTurns: this.numTurns,
      usage: this.usage,
    };
  }

  /**
   * A prompt left without an answer (interrupted, or the request failed) gets a mark after it:
   * without one the next prompt would read as this one's tail. After an answer, the calls'
   * results already end the turn.
   */
  private async markUnanswered(text: string): Promise<void> {
    const mark = userMessage([{ type: "text", text }]);
    this.input.store.append(mark);
    this.context.noteAppended(mark);
    await this.flush();
  }

  /** A user message the run adds itself (tool results), stored and announced. */
  private appendUser(content: ContentBlock[]): void {
    const user = userMessage(content);
    this.input.store.append(user);
    this.input.emit({ type: "user", message: user });
  }

  /** A user message of text the run sends on with (a structured answer's errors, a Stop hook's reason). */
  private async sendUserText(text: string): Promise<void> {
    this.appendUser([{ type: "text", text }]);
    await this.flush();
  }

  private specsOf(): ToolSpec[] {
    return [...this.input.tools.values()].map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema,
    }));
  }
}
