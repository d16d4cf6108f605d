// Keeps a session's context within the model's window: builds each request's messages, counts
// their tokens, and condenses — prune old tool outputs, else summarise with one model call, else
// fall back to a sliding window with a marker — before the limit, on request, or after the API
// said the prompt was too long. A summary or window condense appends a compaction record to the
// store (then the kept turns again, with new ids), so resume starts from it.

import type { Config } from "../config/config.ts";
import type { AssistantTurn, Provider, ToolSpec } from "../llm/types.ts";
import { InterruptedError, errorMessage } from "../protocol/errors.ts";
import type { EventSink } from "../protocol/events.ts";
import type { CompactionInfo, Message, Usage } from "../protocol/message.ts";
import { addUsage } from "../llm/pricing.ts";
import type { SessionStore } from "../store/types.ts";
import {
  TASK_TOKENS,
  USER_MESSAGES_TOKENS,
  keepUserMessages,
  recordWithKept,
  taskTextOf,
} from "./compaction-record.ts";
import {
  isContextOverflow,
  overflowAfterCondensing,
  overflowFigures,
  overflowWithoutCondense,
} from "./context-overflow.ts";
import { buildContext, lastRecordIndex } from "./context.ts";
import { FirstPrompt } from "./first-prompt.ts";
import { selectImagesForContext } from "./image-context.ts";
import { keptStart, windowTail, withoutOldestTurn } from "./kept-turns.ts";
import { contextWindowFor } from "./model-windows.ts";
import { PromptTokens } from "./prompt-tokens.ts";
import { type CacheRates, PRUNE_KEEP_TOKENS, pruneGap, prunedSavings, selectPrune } from "./prune.ts";
import { priceFor } from "../llm/pricing.ts";
import { type SummaryHooks, summarise } from "./summary-call.ts";
import { promptText } from "./summary-prompt.ts";
import { CHARS_PER_TOKEN, estimateTextTokens, estimateTokens } from "./token-estimate.ts";
import { groupTurns } from "./turns.ts";

export { USER_MESSAGES_TOKENS, keepUserMessages } from "./compaction-record.ts";
export { isContextOverflow } from "./context-overflow.ts";

export type CondenseTrigger = "auto" | "manual" | "reactive";
export type CondenseMethod = "prune" | "summary" | "window";

export interface CompactOutcome {
  tokensBefore: number;
  tokensAfter: number;
  method: CondenseMethod | "none";
  trigger: CondenseTrigger;
  /** Messages the condense stood in for (0 for a prune or when there was nothing to condense). */
  replaced: number;
  /** Whole turns kept after the record (summary or window). */
  keptTurns?: number;
  /** Why nothing was condensed although there was something to condense: it would not shrink. */
  failure?: string;
}

/** Anthropic's cache prices as multiples of input: also assumed for a model without a price. */
const ANTHROPIC_RATES: CacheRates = { write: 1.25, read: 0.1 };
/** A prune is enough when it brings the context under this share of the threshold. */
const PRUNE_ENOUGH = 0.6;
/** The in-memory window (count and bytes) may fill this far before the context is condensed. */
const RING_SHARE = 0.75;
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
  compactions = 0;
  summaryCalls = 0;
  /** Tokens the summary calls used, in all. */
  readonly summaryUsage: Usage = { input_tokens: 0, output_tokens: 0 };
  /** Counts each summary call, and its prompt as garbage toward the next collection. */
  private readonly summaryHooks: SummaryHooks = {
    onPrompt: (chars) => {
      this.sentSinceCollect += chars;
    },
    onCall: (usage) => {
      this.summaryCalls++;
      addUsage(this.summaryUsage, usage);
    },
  };

  constructor(private readonly deps: ContextManagerDeps) {
    this.firstPrompt = new FirstPrompt(deps.store);
    this.tokens = new PromptTokens(deps.system, deps.tools);
  }

  private sentSinceCollect = 0;
  /** Prompt tokens right after the last condense (or of the first request); the growth a turn since. */
  private afterCondense: number | undefined;
  private lastTokens: number | undefined;
  private growth = 0;

  /**
   * Whether the requests sent since the last collection (about their characters, plus `extra`
   * bytes such as images) passed `bytes`; resets the count when it says yes.
   */
  garbageDue(extra: number, bytes: number): boolean {
    this.sentSinceCollect += estimateTokens(this.lastSent) * CHARS_PER_TOKEN + extra;
    if (this.sentSinceCollect < bytes) return false;
    this.sentSinceCollect = 0;
    return true;
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

  private ringPressure(context: readonly Message[]): boolean {
    const { maxMessages, maxBytes } = this.deps.config.store;
    return (
      context.length > maxMessages * RING_SHARE || estimateTokens(context) * CHARS_PER_TOKEN > maxBytes * RING_SHARE
    );
  }

  /** The context for the next request, condensed first when it has grown past a bound. */
  async prepare(signal: AbortSignal): Promise<Message[]> {
    let context = await this.current();
    if (!this.deps.config.context.autoCondense) return context;
    const tokens = this.tokensOf(context);
    this.noteGrowth(tokens);
    const over = tokens > this.limit;
    const pressure = this.ringPressure(context);
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
  async condense(
    trigger: CondenseTrigger,
    opts: {
      signal: AbortSignal;
      focus?: string;
      hardness?: number;
      context?: Message[];
      pressure?: boolean;
      /** Never condense into the last keepLastTurns turns (a condense nobody needs urgently). */
      keepWhole?: boolean;
      /** `/compact --keep-last N`: keep exactly the last N whole turns (instead of keepLastTurns). */
      keepLast?: number;
    },
  ): Promise<CompactOutcome> {
    const { signal } = opts;
    const hardness = opts.hardness ?? 0;
    const context = opts.context ?? (await this.current());
    const tokensBefore = this.tokensOf(context);

    // 1. Prune: enough on its own when it leaves plenty of room.
    if (trigger === "auto" && !opts.pressure && !this.requested) {
      // A small window keeps less: a quarter of the threshold at most.
      const pruned = selectPrune(context, this.pruneKeep);
      if (pruned.size) {
        const after = tokensBefore - prunedSavings(context, pruned);
        if (after <= this.limit * PRUNE_ENOUGH) return this.applyPrune(pruned, tokensBefore, trigger);
      }
    }

    // 2. What a record replaces: everything after the last record (or the first prompt) but the
    // last whole turns.
    const window = this.deps.store.window();
    const at = lastRecordIndex(window);
    const previous = at >= 0 ? window[at]!.compaction : this.lastRecord?.compaction;
    const task = previous?.task ?? (await this.taskText());
    let body: Message[];
    if (at >= 0) body = window.slice(at + 1);
    else if (previous) body = [...window];
    else {
      const first = await this.loadTask();
      body = first && window[0]?.id === first.id ? window.slice(1) : [...window];
    }
    const keep = opts.keepLast ?? Math.max(0, this.deps.config.context.keepLastTurns - hardness);
    const split = keptStart(body, keep, opts.keepWhole || opts.keepLast !== undefined);
    const middle = body.slice(0, split);
    // A lone message is not worth a model call: its summary would be as long.
    if (middle.length < 2) return { tokensBefore, tokensAfter: tokensBefore, method: "none", trigger, replaced: 0 };
    // Said when it starts: a summary call may take a while.
    const keepTurns = groupTurns(body.slice(split)).length;
    this.deps.emit({ type: "compact_start", trigger, messages: middle.length, keep_turns: keepTurns });

    const userMessages = keepUserMessages(
      [...(previous?.userMessages ?? []), ...middle.map(promptText).filter((t): t is string => t !== undefined)],
      this.recordBudget(USER_MESSAGES_TOKENS),
    );
    let summary: string | undefined;
    let failure: string | undefined;
    if (hardness < 2) {
      try {
        summary = await summarise(
          this.deps,
          this.window,
          { task, previous: previous?.summary, middle, userMessages, focus: opts.focus, signal },
          this.summaryHooks,
        );
      } catch (err) {
        if (err instanceof InterruptedError || signal.aborted) throw new InterruptedError();
        failure = errorMessage(err);
      }
      if (summary !== undefined && estimateTextTokens(summary) >= estimateTokens(middle)) {
        failure = "the summary was not smaller than what it replaced";
        summary = undefined;
      }
    } else {
      failure = "the prompt was still too long after condensing";
    }
    if (signal.aborted) throw new InterruptedError();

    // 3. The record and the turns kept after it (for the sliding window: as many as fit). A condense
    // must leave the request smaller than it found it: else fewer turns are kept, down to none.
    const method: "summary" | "window" = summary !== undefined ? "summary" : "window";
    const firstTask = at < 0 ? (await this.loadTask())?.id : undefined;
    const parts = { body, previous, firstTask, task, summary, method, trigger, tokensBefore };
    let tail = body.slice(split);
    // The window keeps what fits, but never more than `--keep-last` asked for.
    if (method === "window") {
      tail = shorter(windowTail(body, this.limit, hardness), opts.keepLast === undefined ? undefined : tail);
    }
    let built = this.recordFor(parts, tail);
    while (built.tokensAfter >= tokensBefore && tail.length) {
      tail = withoutOldestTurn(tail);
      built = this.recordFor(parts, tail);
    }
    if (built.tokensAfter >= tokensBefore) {
      const why = `it would not make the context smaller (${tokensBefore} tokens before, ${built.tokensAfter} after)`;
      const reason = failure ? `${failure}, and the sliding window: ${why}` : why;
      const message = `could not compact the conversation: ${reason}; nothing was changed`;
      this.deps.emit({ type: "warning", message });
      return { tokensBefore, tokensAfter: tokensBefore, method: "none", trigger, replaced: 0, failure: reason };
    }
    const { info, record, copies, replaced } = built;
    // Appended together, so one archive write carries them: a kill -9 leaves the record with all,
    // some or none of its kept turns, each of which is a well-formed context.
    this.deps.store.append(record);
    for (const copy of copies) this.deps.store.append(copy);
    this.lastRecord = record;
    // What the record stands for is on disk and no longer in any request: memory keeps only the
    // new context, so a long session holds no more than a short one.
    this.deps.store.shrink(copies.length + 1);
    // What left memory is garbage now: count it toward the next full collection.
    this.sentSinceCollect += (tokensBefore - info.tokensAfter) * CHARS_PER_TOKEN;
    this.pruned.clear();
    this.tokens.forget();
    this.requested = false;
    this.quietUntil = 0;
    const tokensAfter = this.tokensOf(await this.current());
    if (method === "window") {
      this.deps.emit({
        type: "warning",
        message: `could not summarise the conversation (${failure}): the context now keeps the newest ${copies.length} messages and a note that ${info.count} earlier ones are in the session archive`,
      });
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

  /** The prompt cache's write and read prices as multiples of input, for the model in use. */
  private cacheRates(): CacheRates {
    const { provider, config } = this.deps;
    const price = priceFor(provider.name, provider.model, config.price);
    return price && price.input > 0
      ? { write: price.cacheWrite / price.input, read: price.cacheRead / price.input }
      : ANTHROPIC_RATES;
  }

  /** Tracks how fast the context grows a turn (a moving average of the growth between requests). */
  private noteGrowth(tokens: number): void {
    const grew = tokens - (this.lastTokens ?? tokens);
    if (grew > 0) this.growth = this.growth === 0 ? grew : this.growth * 0.8 + grew * 0.2;
    this.lastTokens = tokens;
    this.afterCondense ??= tokens;
  }

  /**
   * Prunes before the threshold when the bill says so: once the context has grown past its size
   * after the last condense by pruneGap (the re-write a prune causes against the reads it saves),
   * old outputs are cleared down to the low-water mark in one step, so early messages change
   * rarely. Undefined when not due.
   */
  private async pruneIfDue(context: Message[], tokens: number): Promise<CompactOutcome | undefined> {
    if (this.afterCondense === undefined || this.growth <= 0) return undefined;
    const pruned = selectPrune(context, this.pruneKeep);
    if (!pruned.size) return undefined;
    // What the prune makes the cache write again: everything from the first message it changes.
    const first = context.findIndex((m) => pruned.has(m.id));
    const rewrite = estimateTokens(context.slice(first).map((m) => pruned.get(m.id) ?? m));
    if (tokens - this.afterCondense < pruneGap(rewrite, this.growth, this.cacheRates())) return undefined;
    return this.applyPrune(pruned, tokens, "auto");
  }

  /** The low-water mark: a small window keeps less, a quarter of the threshold at most. */
  private get pruneKeep(): number {
    return Math.min(PRUNE_KEEP_TOKENS, Math.floor(this.limit / 4));
  }

  /** The compaction record standing for all of `body` but `tail`, with its kept copies and their tokens. */
  private recordFor(
    p: {
      body: Message[];
      previous: CompactionInfo | undefined;
      firstTask: string | undefined;
      task: string;
      summary: string | undefined;
      method: "summary" | "window";
      trigger: CondenseTrigger;
      tokensBefore: number;
    },
    tail: Message[],
  ) {
    const replaced = p.body.slice(0, p.body.length - tail.length);
    const userMessages = keepUserMessages(
      [...(p.previous?.userMessages ?? []), ...replaced.map(promptText).filter((t): t is string => t !== undefined)],
      this.recordBudget(USER_MESSAGES_TOKENS),
    );
    const info: CompactionInfo = {
      trigger: p.trigger,
      firstId: p.previous?.firstId ?? p.firstTask ?? replaced[0]?.id ?? "",
      lastId: replaced.at(-1)?.id ?? p.previous?.lastId ?? "",
      // Without an earlier record the first prompt is replaced too.
      count: (p.previous?.count ?? 1) + replaced.length,
      tokensBefore: p.tokensBefore,
      tokensAfter: 0,
      keptIds: [],
      method: p.method,
      task: p.task,
      ...(p.summary !== undefined
        ? { summary: p.summary }
        : p.previous?.summary
          ? { summary: p.previous.summary }
          : {}),
      userMessages,
    };
    const { record, copies } = recordWithKept(info, tail, this.tokens.fixed);
    const total = (this.deps.store.messageCount?.() ?? 0) + 1 + copies.length;
    const tokensAfter = this.tokensOf(buildContext([record, ...copies], { total }));
    return { info, record, copies, replaced, tokensAfter };
  }

  private report(outcome: CompactOutcome): CompactOutcome {
    this.compactions++;
    this.afterCondense = outcome.tokensAfter;
    this.deps.emit({
      type: "compact_boundary",
      trigger: outcome.trigger,
      method: outcome.method as CondenseMethod,
      tokens_before: outcome.tokensBefore,
      tokens_after: outcome.tokensAfter,
      messages_replaced: outcome.replaced,
    });
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

const shorter = (a: Message[], b: Message[] | undefined): Message[] => (b !== undefined && b.length < a.length ? b : a);
