// From what a hook said to a HookOutcome: a command's exit code, stdout and stderr, or the JSON an
// SDK callback answers. Claude Code's rules: exit 2 blocks with stderr as the reason; exit 0 with
// JSON on stdout decides by its fields; exit 0 with plain text adds it as context where an event
// takes context (UserPromptSubmit, SessionStart); any other exit is a failed hook, told the user.

import * as z from "zod/mini";
import type { HookEventName } from "../protocol/hook-events.ts";
import { issuePhrases } from "../protocol/schema-issues.ts";
import type { HookOutcome } from "./types.ts";

// Built on a hook's first JSON answer: a run without hooks never builds it.
const buildHookJson = () =>
  z.looseObject({
    continue: z.optional(z.boolean()),
    stopReason: z.optional(z.string()),
    suppressOutput: z.optional(z.boolean()),
    systemMessage: z.optional(z.string()),
    decision: z.optional(z.enum(["block", "approve"])),
    reason: z.optional(z.string()),
    hookSpecificOutput: z.optional(
      z.looseObject({
        hookEventName: z.optional(z.string()),
        permissionDecision: z.optional(z.enum(["allow", "deny", "ask"])),
        permissionDecisionReason: z.optional(z.string()),
        additionalContext: z.optional(z.string()),
        updatedInput: z.optional(z.record(z.string(), z.unknown())),
      }),
    ),
  });
let hookJson: ReturnType<typeof buildHookJson> | undefined;

/** Events whose plain stdout (exit 0) is context for the model. */
const PLAIN_CONTEXT: ReadonlySet<HookEventName> = new Set(["UserPromptSubmit", "SessionStart"]);
/** Longest text a hook may add or give as a reason: a runaway hook must not flood the context. */
export const MAX_HOOK_TEXT = 10_000;

const cut = (text: string) => (text.length > MAX_HOOK_TEXT ? `${text.slice(0, MAX_HOOK_TEXT)}…` : text);

/** A hook's JSON answer (stdout, or an SDK callback's reply) as an outcome. */
export function outcomeFromJson(value: unknown, label: string): HookOutcome {
  hookJson ??= buildHookJson();
  const parsed = z.safeParse(hookJson, value);
  if (!parsed.success) {
    const why = issuePhrases(parsed.error.issues, value)[0] ?? "unexpected shape";
    return { notice: `hook ${label} answered JSON synapse cannot use: ${why}` };
  }
  const out = parsed.data;
  const specific = out.hookSpecificOutput;
  const outcome: HookOutcome = {};
  if (out.decision === "block") outcome.block = cut(out.reason?.trim() || `blocked by hook ${label}`);
  if (out.decision === "approve") outcome.permission = "allow";
  if (specific?.permissionDecision) {
    outcome.permission = specific.permissionDecision;
    if (specific.permissionDecision === "ask" && specific.permissionDecisionReason?.trim()) {
      outcome.reason = cut(specific.permissionDecisionReason.trim());
    }
    if (specific.permissionDecision === "deny") {
      outcome.block = cut(specific.permissionDecisionReason?.trim() || out.reason?.trim() || `denied by hook ${label}`);
    }
  }
  if (specific?.additionalContext?.trim()) outcome.context = cut(specific.additionalContext.trim());
  if (specific?.updatedInput) outcome.updatedInput = specific.updatedInput;
  if (out.systemMessage?.trim()) outcome.notice = cut(out.systemMessage.trim());
  // Claude Code: `continue: false` stops the agent after the event, whatever else the hook decided.
  if (out.continue === false) outcome.stop = cut(out.stopReason?.trim() || `stopped by hook ${label}`);
  return outcome;
}

export interface CommandResult {
  /** null: killed (time limit, interrupt). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut?: boolean;
}

/** A hook command's result as an outcome; `label` names the hook in notices. */
export function outcomeFromCommand(event: HookEventName, result: CommandResult, label: string): HookOutcome {
  const stderr = result.stderr.trim();
  if (result.timedOut) return { notice: `hook ${label} timed out and was killed` };
  if (result.code === 2) return { block: cut(stderr || `blocked by hook ${label}`) };
  if (result.code !== 0) {
    const why = result.code === null ? "was killed" : `failed (exit ${result.code})`;
    return { notice: `hook ${label} ${why}${stderr ? `: ${cut(stderr).split("\n")[0]}` : ""}` };
  }
  const stdout = result.stdout.trim();
  if (stdout.startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(stdout);
    } catch {
      return { notice: `hook ${label} printed text that starts like JSON but is not JSON` };
    }
    return outcomeFromJson(value, label);
  }
  return PLAIN_CONTEXT.has(event) && stdout ? { context: cut(stdout) } : {};
}
