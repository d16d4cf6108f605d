// What one hook answers, and the one interface every source of hooks implements (see index.ts).

import type { HookEventInput } from "../protocol/hook-events.ts";

/** One hook's answer, whatever its source (a command's exit code and output, an SDK callback's JSON). */
export interface HookOutcome {
  /** The hook blocks; the reason goes to the model (PreToolUse, PostToolUse, Stop) or the user (UserPromptSubmit). */
  block?: string;
  /** PreToolUse: its permission decision; "allow" only skips a question, never a deny rule. */
  permission?: "allow" | "deny" | "ask";
  /** PreToolUse "ask": why (shown in the question). */
  reason?: string;
  /** Text added to what the model sees (PostToolUse, UserPromptSubmit, SessionStart). */
  context?: string;
  /** A line for the user only (a failed hook, `systemMessage`). */
  notice?: string;
  /** PreToolUse: the input the call runs with instead of the model's (`hookSpecificOutput.updatedInput`). */
  updatedInput?: Record<string, unknown>;
  /** `"continue": false`: the agent stops after this event; the text (`stopReason`) is for the user. */
  stop?: string;
}

/**
 * A source of hooks: the config files' commands (command-source.ts), an SDK program's callbacks
 * (`hook_callback`, src/agent-sdk/). `run` hears every event the session fires, picks its own
 * hooks that match it (matcher.ts), runs them and returns one outcome per hook that ran; it never
 * throws (a failing hook is an outcome with a `notice`).
 */
export interface HookSource {
  run(event: HookEventInput, signal: AbortSignal): Promise<HookOutcome[]>;
}

/** A tool call as the hooks see it. */
export interface HookedCall {
  id: string;
  name: string;
  input: unknown;
}

/** PreToolUse's verdict for the tool-call path. */
export interface PreToolVerdict {
  /** A hook stopped the agent (`"continue": false`, its reason): the call does not run, nor anything after it. */
  stop?: string;
  /** Blocked: the call gets an is_error result with this text. */
  block?: string;
  /** Every hook that answered said allow: a question the policy would ask is skipped. */
  allow: boolean;
  /** A hook said "ask" (its reason): the user is asked first, even where the policy would not ask. */
  ask?: string;
  /**
   * A hook rewrote the call's input: the call runs with this instead, after the tool's schema and
   * the whole permission gate have judged it as if the model had sent it.
   */
  updatedInput?: Record<string, unknown>;
}

/**
 * The two tool events, all the tool-call path needs (agent/tool-call.ts). A sub-agent's worker
 * implements it by asking the main thread, where the hooks run.
 */
export interface ToolHooks {
  preToolUse(call: HookedCall, signal: AbortSignal): Promise<PreToolVerdict>;
  /** Text to add to the tool's result, if any hook gave some (or blocked: its reason); a stop ends the agent. */
  postToolUse(call: HookedCall, response: unknown, signal: AbortSignal): Promise<PostToolVerdict>;
}

/** PostToolUse's verdict: text for the result the model gets, and whether a hook stopped the agent. */
export interface PostToolVerdict {
  context?: string;
  stop?: string;
}

/** What a run's turn loop fires besides the tool events (agent/runner.ts); sub-agents have neither. */
export interface RunHooks extends ToolHooks {
  /** Before the prompt is stored or sent: a block (or a hook's stop) keeps it from being sent at all. */
  userPromptSubmit?(prompt: string, signal: AbortSignal): Promise<{ block?: string; context?: string; stop?: string }>;
  /** When the model would end the run: a reason sends it back to work, unless a hook stopped the agent. */
  stop?(active: boolean, signal: AbortSignal): Promise<{ reason?: string; stop?: string }>;
}
