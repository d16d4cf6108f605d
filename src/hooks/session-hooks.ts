// A session's hooks: every event the agent and the executor fire goes to every source, and the
// sources' outcomes are combined into what the caller acts on. Claude Code's precedence: a block
// (or deny) wins over ask, ask over allow; contexts from several hooks are all kept.

import { claudeToolInput, fromClaudeToolInput } from "../protocol/claude-tool-input.ts";
import type { HookEvent, HookEventInput } from "../protocol/hook-events.ts";
import type { HookedCall, HookOutcome, HookSource, PostToolVerdict, PreToolVerdict, RunHooks } from "./types.ts";

/** Times one run lets Stop hooks send the model back to work before it ends all the same. */
export const MAX_STOP_CONTINUATIONS = 3;

export interface SessionHooksInput {
  sessionId: string;
  /** The session's archive (inside synapse's data folder, which a sandboxed hook cannot read). */
  transcriptPath: string;
  cwd: string;
  /** What SessionStart says: a new session, or one resumed (-c, -r). */
  startSource: StartSource;
  permissionMode(): string;
  /** A line for the user: a hook's notice, a hook that failed. */
  warn(message: string): void;
}

/** Why a session starts: new, resumed (-c, -r, /resume), or begun again by /clear. */
export type StartSource = "startup" | "resume" | "clear";

/** SessionStart's source and whether it fired: what the runtime reopened after a /rewind carries on. */
export interface StartState {
  source: StartSource;
  fired: boolean;
}

const joined = (parts: (string | undefined)[]) => {
  const list = parts.filter((p): p is string => Boolean(p));
  return list.length ? list.join("\n") : undefined;
};

export class SessionHooks implements RunHooks {
  private readonly sources: HookSource[] = [];
  private started: Promise<string | undefined> | undefined;
  private source: StartSource;

  constructor(private readonly input: SessionHooksInput) {
    this.source = input.startSource;
  }

  startState(): StartState {
    return { source: this.source, fired: this.started !== undefined };
  }

  /**
   * Before the first prompt: carries on from another runtime's hooks in this process. A session
   * reopened after a /rewind did not start again (no second SessionStart); /clear's starts as `clear`.
   */
  continueStart(state: StartState): void {
    this.source = state.source;
    if (state.fired) this.started ??= Promise.resolve(undefined);
  }

  /** Whether any source may answer (a sub-agent asks the main thread only then). */
  get active(): boolean {
    return this.sources.length > 0;
  }

  /** Adds a source (the SDK's callbacks join when its `initialize` arrives). */
  addSource(source: HookSource): void {
    this.sources.push(source);
  }

  private async fire(event: HookEvent, signal: AbortSignal): Promise<HookOutcome[]> {
    if (!this.sources.length) return [];
    const { input } = this;
    const full = {
      session_id: input.sessionId,
      transcript_path: input.transcriptPath,
      cwd: input.cwd,
      permission_mode: input.permissionMode(),
      ...event,
    } as HookEventInput;
    const outcomes = (await Promise.all(this.sources.map((s) => s.run(full, signal)))).flat();
    for (const o of outcomes) if (o.notice) input.warn(o.notice);
    return outcomes;
  }

  async preToolUse(call: HookedCall, signal: AbortSignal): Promise<PreToolVerdict> {
    const outcomes = await this.fire(
      {
        hook_event_name: "PreToolUse",
        tool_name: call.name,
        tool_input: claudeToolInput(call.name, call.input),
        tool_use_id: call.id,
      },
      signal,
    );
    const stop = joined(outcomes.map((o) => o.stop));
    if (stop) return { stop, allow: false };
    const block = joined(outcomes.map((o) => o.block));
    if (block) return { block, allow: false };
    const rewrite = this.rewrittenInput(outcomes, call);
    const decided = outcomes.filter((o) => o.permission);
    const asking = decided.filter((o) => o.permission === "ask");
    if (asking.length)
      return { allow: false, ask: joined(asking.map((o) => o.reason)) ?? "no reason given", ...rewrite };
    return { allow: decided.length > 0 && decided.every((o) => o.permission === "allow"), ...rewrite };
  }

  /** The first hook's `updatedInput` (hooks run at once, so there is no later one to build on). */
  private rewrittenInput(outcomes: HookOutcome[], call: HookedCall): { updatedInput?: Record<string, unknown> } {
    const tool = call.name;
    const rewrites = outcomes.flatMap((o) =>
      o.updatedInput ? [fromClaudeToolInput(tool, call.input, o.updatedInput)] : [],
    );
    const [first, ...others] = rewrites;
    if (!first) return {};
    const differing = others.filter((r) => JSON.stringify(r) !== JSON.stringify(first)).length;
    const count = differing + 1;
    if (differing)
      this.input.warn(
        `${count} PreToolUse hooks rewrote a ${tool} call's input differently; the first in config order applies`,
      );
    return { updatedInput: first };
  }

  async postToolUse(call: HookedCall, response: unknown, signal: AbortSignal): Promise<PostToolVerdict> {
    const outcomes = await this.fire(
      {
        hook_event_name: "PostToolUse",
        tool_name: call.name,
        tool_input: claudeToolInput(call.name, call.input),
        tool_response: response,
        tool_use_id: call.id,
      },
      signal,
    );
    const context = joined(outcomes.flatMap((o) => [o.block, o.context]));
    const stop = joined(outcomes.map((o) => o.stop));
    return { ...(context ? { context } : {}), ...(stop ? { stop } : {}) };
  }

  /**
   * SessionStart (once, before the first prompt) then UserPromptSubmit: a block keeps the prompt
   * from being sent; the contexts of both go with it.
   */
  async userPromptSubmit(
    prompt: string,
    signal: AbortSignal,
  ): Promise<{ block?: string; context?: string; stop?: string }> {
    const start = await this.sessionStarted(signal);
    if (start.stop) return { stop: start.stop };
    const outcomes = await this.fire({ hook_event_name: "UserPromptSubmit", prompt }, signal);
    const stop = joined(outcomes.map((o) => o.stop));
    if (stop) return { stop };
    const block = joined(outcomes.map((o) => o.block));
    if (block) return { block };
    const context = joined([start.context, ...outcomes.map((o) => o.context)]);
    return context ? { context } : {};
  }

  /** Fires SessionStart once; its context goes with the first prompt only, its stop ends that prompt's run. */
  private async sessionStarted(signal: AbortSignal): Promise<{ context?: string; stop?: string }> {
    if (this.started) {
      await this.started;
      return {};
    }
    const source = this.source;
    const fired = this.fire({ hook_event_name: "SessionStart", source }, signal).then((outcomes) => {
      for (const o of outcomes) if (o.block) this.input.warn(`SessionStart hook: ${o.block}`);
      return { context: joined(outcomes.map((o) => o.context)), stop: joined(outcomes.map((o) => o.stop)) };
    });
    this.started = fired.then((s) => s.context);
    return fired;
  }

  /** Stop: the reason to keep working, when a hook blocks the stop; a hook's stop wins over any block. */
  async stop(active: boolean, signal: AbortSignal): Promise<{ reason?: string; stop?: string }> {
    const outcomes = await this.fire({ hook_event_name: "Stop", stop_hook_active: active }, signal);
    const stop = joined(outcomes.map((o) => o.stop));
    if (stop) return { stop };
    const reason = joined(outcomes.map((o) => o.block));
    return reason ? { reason } : {};
  }

  /** PreCompact: told before a summary replaces the context; it cannot stop it (as in Claude Code). */
  async preCompact(trigger: "manual" | "auto", instructions: string | undefined, signal: AbortSignal): Promise<void> {
    const outcomes = await this.fire(
      { hook_event_name: "PreCompact", trigger, custom_instructions: instructions ?? "" },
      signal,
    );
    for (const o of outcomes) if (o.block) this.input.warn(`PreCompact hook: ${o.block}`);
  }
}
