// Keeps a session's context within the model's window: builds each request's messages, counts
// their tokens, and condenses — prune old tool outputs, else summarise with one model call, else
// fall back to a sliding window with a marker — before the limit, on request, or after the API
// said the prompt was too long. A summary or window condense appends a compaction record to the
// store (then the kept turns again, with new ids), so resume starts from it.

import type { Config } from "../config/config.ts";
import type { AssistantTurn, Provider, ToolSpec } from "../llm/types.ts";
import { InterruptedError, errorMessage } from "../protocol/errors.ts";
import type { EventSink } from "../protocol/events.ts";
import type { Message, Usage } from "../protocol/message.ts";
import { addUsage } from "../llm/pricing.ts";
import type { SessionStore } from "../store/types.ts";
import { TASK_TOKENS, USER_MESSAGES_TOKENS, taskTextOf } from "./compaction-record.ts";
import {
  isContextOverflow,
  overflowAfterCondensing,
  overflowFigures,
  overflowWithoutCondense,
} from "./context-overflow.ts";
import {
  type CompactOutcome,
  type CondenseOptions,
  type CondenseTrigger,
  boundaryEvent,
  condenseScope,
  enoughPrune,
  planRecord,
  ringPressure,
  unchanged,
  windowWarning,
} from "./condense-plan.ts";
import { buildContext, lastRecordIndex } from "./context.ts";
import { FirstPrompt } from "./first-prompt.ts";
import { GarbageMeter } from "./garbage-meter.ts";
import { selectImagesForContext } from "./image-context.ts";
import { contextWindowFor } from "./model-windows.ts";
import { PromptTokens } from "./prompt-tokens.ts";
import { PRUNE_KEEP_TOKENS } from "./prune.ts";
import { priceFor } from "../llm/pricing.ts";
import { PruneSchedule, cacheRatesFor } from "./prune-schedule.ts";
import type { BuiltRecord, RecordParts, RecordSizing } from "./record-fit.ts";
import { type CachedPrefix, type SummaryHooks, cacheWarm, summaryOf } from "./summary-call.ts";
import { CHARS_PER_TOKEN, estimateTokens } from "./token-estimate.ts";
import { groupTurns } from "./turns.ts";

export { USER_MESSAGES_TOKENS, keepUserMessages } from "./compaction-record.ts";
export { isContextOverflow } from "./context-overflow.ts";

export type { CompactOutcome, CondenseMethod, CondenseTrigger } from "./condense-plan.ts";

/** Messages the context must grow by before a condense that did not help is tried again. */
const QUIET_MESSAGES = 8;
/** Reactive retries after "prompt is too long". */
export const MAX_REACTIVE_CONDENSES = 3;

export interface ContextManagerDeps {
  config: Config;
  provider: Provider;
  store: SessionStore;
  system: string;
  tools: ToolSpec[];
  emit: EventSink;
  /** PreCompact hooks (src/hooks), told before a summary replaces part of the context. */
  preCompact?(trigger: "manual" | "auto", focus: string | undefined, signal: AbortSignal): Promise<void>;
}

export class ContextManager {
  private readonly firstPrompt: FirstPrompt;
  private readonly tokens: PromptTokens;
  /** Pruned copies (same id) standing in for window messages. */
  private pruned = new Map<string, Message>();
  private requested = false;
  /** The last compaction record seen: memory pressure may evict it from the window, never from the context. */
  private lastRecord: Message | undefined;
  /** After a condense that could not shrink anything, wait for this many messages before trying again. */
  private quietUntil = 0;
  /** The window the API's own "too long" message gave, when smaller than the table's. */
  private learnedWindow: number | undefined;
  /** The messages of the last request sent (images selected). */
  lastSent: Message[] = [];
  private turnTools: ToolSpec[];
  /** When the last turn's request was answered (its prompt is in the cache for a while). */
  private lastSentAt: number | undefined;
  compactions = 0;
  summaryCalls = 0;
  /** Tokens the summary calls used, in all. */
  readonly summaryUsage: Usage = { input_tokens: 0, output_tokens: 0 };
  /** Counts each summary call, and its prompt as garbage toward the next collection. */
  private readonly summaryHooks: SummaryHooks = {
    onPrompt: (chars) => this.garbage.add(chars),
    onCall: (usage) => {
      this.summaryCalls++;
      addUsage(this.summaryUsage, usage);
    },
  };

  constructor(private readonly deps: ContextManagerDeps) {
    this.turnTools = deps.tools;
    this.firstPrompt = new FirstPrompt(deps.store);
    this.tokens = new PromptTokens(deps.system, deps.tools);
  }

  /** Bytes of requests and condensed-away messages since the last full collection. */
  private readonly garbage = new GarbageMeter();
  /** When a prune pays before the threshold: the context's growth since the last condense. */
  private readonly schedule = new PruneSchedule();

  /**
   * Whether the requests sent since the last collection (about their characters, plus `extra`
   * bytes such as images) passed `bytes`; resets the count when it says yes.
   */
  garbageDue(extra: number, bytes: number): boolean {
    return this.garbage.due(estimateTokens(this.lastSent) * CHARS_PER_TOKEN + extra, bytes);
  }

  /** The model's window in tokens (the provider may change during a session). */
  get window(): number {
    const known = contextWindowFor(this.deps.provider.model, this.deps.config.context.window);
    return this.learnedWindow !== undefined ? Math.min(known, this.learnedWindow) : known;
  }

  /** Tokens the context may reach before a condense: the threshold share of window minus output. */
  get limit(): number {
    const budget = Math.max(1000, this.window - this.deps.config.maxTokens);
    return Math.floor((budget * this.deps.config.context.thresholdPercent) / 100);
  }

  /** Messages of the window the context is built from (the last record onward, or all). */
  messagesInContext(): number {
    const window = this.deps.store.window();
    return window.length - Math.max(0, lastRecordIndex(window));
  }

  /** The memory monitor asked for compaction: condense before the next request. */
  request(): void {
    this.requested = true;
  }

  /** The session's first prompt: the first message appended, or read once from the archive. */
  noteAppended(message: Message): void {
    this.firstPrompt.note(message);
  }

  private loadTask(): Promise<Message | undefined> {
    return this.firstPrompt.load();
  }

  /** The context as the next request would carry it (pruned outputs applied, edges repaired). */
  async current(): Promise<Message[]> {
    const window = this.deps.store.window();
    const at = lastRecordIndex(window);
    if (at >= 0) this.lastRecord = window[at];
    const task = at < 0 ? await this.loadTask() : undefined;
    const source = this.pruned.size ? window.map((m) => this.pruned.get(m.id) ?? m) : window;
    return buildContext(source, {
      task,
      record: at < 0 ? this.lastRecord : undefined,
      total: this.deps.store.messageCount?.(),
    });
  }

  /** Estimated prompt tokens of a context, corrected by the usage the last response reported. */
  tokensOf(context: readonly Message[]): number {
    return this.tokens.of(context);
  }

  /** The usage a response reported for the request made of `context`. */
  recordUsage(context: readonly Message[], inputTokens: number): void {
    this.tokens.record(context, inputTokens);
  }

  /** The context for the next request, condensed first when it has grown past a bound. */
  async prepare(signal: AbortSignal): Promise<Message[]> {
    let context = await this.current();
    if (!this.deps.config.context.autoCondense) return context;
    const tokens = this.tokensOf(context);
    this.schedule.noteGrowth(tokens);
    const over = tokens > this.limit;
    const pressure = ringPressure(context, this.deps.config.store);
    if ((over || pressure || this.requested) && context.length >= this.quietUntil) {
      // Asked by the memory monitor alone: condense what lies beyond the kept turns, if anything.
      const requestedOnly = !over && !pressure;
      const outcome = await this.condense("auto", { signal, context, pressure, keepWhole: requestedOnly });
      context = await this.current();
      // A condense that could not shrink anything, or one the monitor keeps asking for while memory
      // stays high, is not repeated before the context has grown by a few turns.
      if (requestedOnly || outcome.method === "none" || outcome.tokensAfter >= outcome.tokensBefore)
        this.quietUntil = context.length + QUIET_MESSAGES;
      if (outcome.method === "none") this.requested = false;
    } else if (!over && !pressure && !this.requested && (await this.pruneIfDue(context, tokens))) {
      context = await this.current();
    }
    return context;
  }

  /**
   * Sends one request through `send`, with the context prepared (condensed when needed); when the
   * API answers that the prompt is too long, condenses harder and sends again, at most
   * MAX_REACTIVE_CONDENSES times.
   */
  async ask(signal: AbortSignal, send: (messages: Message[]) => Promise<AssistantTurn>): Promise<AssistantTurn> {
    const { config } = this.deps;
    let context = await this.prepare(signal);
    for (let attempt = 0; ; attempt++) {
      const sent = selectImagesForContext(context, {
        maxImages: config.store.contextMaxImages,
        maxBytes: config.store.contextMaxImageBytes,
      });
      this.lastSent = sent;
      try {
        const turn = await send(sent);
        this.lastSentAt = Date.now();
        this.recordUsage(sent, turn.usage.input_tokens);
        return turn;
      } catch (err) {
        if (!isContextOverflow(err) || signal.aborted) throw err;
        const said = errorMessage(err);
        if (!config.context.autoCondense) throw overflowWithoutCondense(said);
        if (attempt >= MAX_REACTIVE_CONDENSES) throw overflowAfterCondensing(said, MAX_REACTIVE_CONDENSES);
        this.learnWindow(said, this.tokensOf(context));
        await this.condense("reactive", { signal, hardness: attempt });
        context = await this.current();
      }
    }
  }

  /** The API's own figures, when its message gives them, correct a window that was set too large. */
  private learnWindow(message: string, sentTokens: number): void {
    const [counted, maximum] = overflowFigures(message);
    if (maximum > 0 && maximum < this.window) this.learnedWindow = maximum;
    // The API counted more than we estimated: scale our count of this context up to its figure.
    if (counted > sentTokens && this.lastSent.length) this.recordUsage(this.lastSent, counted);
  }

  /**
   * One condense. `hardness` (reactive retries) keeps fewer recent turns and, from 2 on, skips the
   * summary for the sliding window. Interrupted: throws InterruptedError and changes nothing.
   */
  async condense(trigger: CondenseTrigger, opts: CondenseOptions): Promise<CompactOutcome> {
    const { signal } = opts;
    const hardness = opts.hardness ?? 0;
    const context = opts.context ?? (await this.current());
    const tokensBefore = this.tokensOf(context);

    // 1. Prune: enough on its own when it leaves plenty of room.
    if (trigger === "auto" && !opts.pressure && !this.requested) {
      // A small window keeps less: a quarter of the threshold at most.
      const pruned = enoughPrune(context, tokensBefore, this.pruneKeep, this.limit);
      if (pruned) return this.applyPrune(pruned, tokensBefore, trigger);
    }

    // 2. What a record replaces: everything after the last record (or the first prompt) but the
    // last whole turns.
    const keep = opts.keepLast ?? Math.max(0, this.deps.config.context.keepLastTurns - hardness);
    const source = { window: this.deps.store.window(), lastRecord: this.lastRecord };
    const loaders = { loadTask: () => this.loadTask(), taskText: () => this.taskText() };
    const scope = await condenseScope({ ...source, ...loaders }, keep, opts.keepWhole || opts.keepLast !== undefined);
    const { body, split, previous, task } = scope;
    const middle = body.slice(0, split);
    // A lone message is not worth a model call: its summary would be as long.
    if (middle.length < 2) return unchanged(tokensBefore, trigger);
    // Said when it starts: a summary call may take a while.
    const keepTurns = groupTurns(body.slice(split)).length;
    await this.deps.preCompact?.(trigger === "manual" ? "manual" : "auto", opts.focus, signal);
    this.deps.emit({ type: "compact_start", trigger, messages: middle.length, keep_turns: keepTurns });
    // From hardness 2 on, the sliding window without a summary call. After "too long", the context
    // as sent does not fit: the summary reads a transcript instead of repeating it.
    const prefix = trigger === "reactive" ? undefined : this.cachedPrefix(context);
    const userBudget = this.recordBudget(USER_MESSAGES_TOKENS);
    const { summary, failure } =
      hardness >= 2
        ? { summary: undefined, failure: "the prompt was still too long after condensing" }
        : await summaryOf(
            this.deps,
            this.window,
            { task, previous, middle, focus: opts.focus, signal, userBudget, prefix },
            this.summaryHooks,
          );
    if (signal.aborted) throw new InterruptedError();

    // 3. The record and the turns kept after it, or nothing when it would not shrink the context.
    const fit = { limit: this.limit, hardness, keepLast: opts.keepLast, sizing: this.recordSizing };
    const plan = planRecord(scope, summary, { trigger, tokensBefore, failure }, fit);
    if ("reason" in plan) {
      this.deps.emit({ type: "warning", message: plan.message });
      return unchanged(tokensBefore, trigger, plan.reason);
    }
    return this.commitRecord(plan.built, plan.parts, failure);
  }

  /** Appends the record and its kept turns, leaves only them in memory, and reports the condense. */
  private async commitRecord(
    built: BuiltRecord & { tail: Message[] },
    parts: RecordParts,
    failure: string | undefined,
  ): Promise<CompactOutcome> {
    const { info, record, copies, replaced, tail } = built;
    const { method, trigger, tokensBefore } = parts;
    // Appended together, so one archive write carries them: a kill -9 leaves the record with all,
    // some or none of its kept turns, each of which is a well-formed context.
    this.deps.store.append(record);
    for (const copy of copies) this.deps.store.append(copy);
    this.lastRecord = record;
    // What the record stands for is on disk and no longer in any request: memory keeps only the
    // new context, so a long session holds no more than a short one.
    this.deps.store.shrink(copies.length + 1);
    // What left memory is garbage now: count it toward the next full collection.
    this.garbage.add((tokensBefore - info.tokensAfter) * CHARS_PER_TOKEN);
    this.pruned.clear();
    this.tokens.forget();
    this.requested = false;
    this.quietUntil = 0;
    const tokensAfter = this.tokensOf(await this.current());
    if (method === "window") {
      this.deps.emit({ type: "warning", message: windowWarning(failure, copies.length, info.count) });
    }
    const keptTurns = groupTurns(tail).length;
    return this.report({ tokensBefore, tokensAfter, method, trigger, replaced: replaced.length, keptTurns });
  }

  /** Puts pruned copies in place of their originals and reports the prune. */
  private async applyPrune(
    pruned: Map<string, Message>,
    tokensBefore: number,
    trigger: CondenseTrigger,
  ): Promise<CompactOutcome> {
    // Put in memory in place of the originals where the store can (the archive keeps them
    // whole), so pruned outputs stop costing memory too; else kept here as overrides.
    if (this.deps.store.replaceInMemory) this.deps.store.replaceInMemory(pruned);
    else for (const [id, m] of pruned) this.pruned.set(id, m);
    this.tokens.forget();
    const tokensAfter = this.tokensOf(await this.current());
    return this.report({ tokensBefore, tokensAfter, method: "prune", trigger, replaced: 0 });
  }

  /**
   * Prunes before the threshold when the bill says so (prune-schedule.ts): undefined when not due.
   */
  private async pruneIfDue(context: Message[], tokens: number): Promise<CompactOutcome | undefined> {
    const { provider, config } = this.deps;
    const rates = cacheRatesFor(priceFor(provider.name, provider.model, config.price));
    const pruned = this.schedule.due(context, tokens, this.pruneKeep, rates);
    return pruned ? this.applyPrune(pruned, tokens, "auto") : undefined;
  }

  /** The low-water mark: a small window keeps less, a quarter of the threshold at most. */
  private get pruneKeep(): number {
    return Math.min(PRUNE_KEEP_TOKENS, Math.floor(this.limit / 4));
  }

  /** The tools the turns carry now (MCP servers connect after the start): summary calls repeat them. */
  useTools(tools: ToolSpec[]): void {
    this.turnTools = tools;
  }

  /**
   * The request a turn would send with `context`: a summary call that repeats it reads its cache
   * (none when the last request went out too long ago for its cache to be alive).
   */
  private cachedPrefix(context: Message[]): CachedPrefix | undefined {
    if (!cacheWarm(this.lastSentAt, Date.now())) return undefined;
    const { config, system } = this.deps;
    const messages = selectImagesForContext(context, {
      maxImages: config.store.contextMaxImages,
      maxBytes: config.store.contextMaxImageBytes,
    });
    const cacheKey = this.deps.store.id;
    return { system, tools: this.turnTools, messages, tokens: this.tokensOf(context), cacheKey };
  }

  /** How a compaction record is measured against this session's window. */
  private get recordSizing(): RecordSizing {
    return {
      fixedTokens: this.tokens.fixed,
      budget: (tokens) => this.recordBudget(tokens),
      messageCount: () => this.deps.store.messageCount?.() ?? 0,
      tokensOf: (context) => this.tokensOf(context),
    };
  }

  private report(outcome: CompactOutcome): CompactOutcome {
    this.compactions++;
    this.schedule.condensed(outcome.tokensAfter);
    this.deps.emit(boundaryEvent(outcome));
    return outcome;
  }

  /** A record's parts get their fixed budget, or 15% of the threshold each on a small window. */
  private recordBudget(tokens: number): number {
    return Math.min(tokens, Math.floor(this.limit * 0.15));
  }

  private async taskText(): Promise<string> {
    return taskTextOf(await this.loadTask(), this.recordBudget(TASK_TOKENS));
  }
}
