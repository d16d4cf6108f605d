// A permission question asked of the SDK program (`can_use_tool`, under `--permission-prompt-tool
// stdio`) and its answer turned into the gate's. Fail closed: no answer, an error, or an answer
// that does not parse is a refusal. An `updatedInput` that differs from the model's becomes an
// edited answer, which the tool-call path checks against the tool's schema and the policy again.

import type { ApprovalAnswer, ApprovalRequest } from "../policy/approval.ts";
import { claudeToolInput, fromClaudeToolInput } from "../protocol/claude-tool-input.ts";
import { canonicalJson } from "../text/canonical-json.ts";
import type { ControlChannel } from "./control-channel.ts";
import { type PermissionUpdate, checkPermissionAnswer } from "./sdk-lines.ts";

export interface PermissionAsk {
  channel: ControlChannel;
  /** The id of the model's call this question is about, when known. */
  toolUseId?: string;
  signal?: AbortSignal;
  /** A `setMode` permission update: applies it (or refuses it), returns a note when refused. */
  setMode(mode: string): string | undefined;
  note(text: string): void;
}

export async function askProgram(request: ApprovalRequest, ask: PermissionAsk): Promise<ApprovalAnswer> {
  const answer = await ask.channel.request(
    {
      subtype: "can_use_tool",
      tool_name: request.tool,
      input: claudeToolInput(request.tool, request.input) as Record<string, unknown>,
      decision_reason: request.reason,
      ...(ask.toolUseId ? { tool_use_id: ask.toolUseId } : {}),
      ...(request.exact
        ? {
            permission_suggestions: [
              { type: "addRules", rules: [ruleValue(request.rule)], behavior: "allow", destination: "session" },
            ],
          }
        : {}),
    },
    ask.signal,
  );
  if (!answer.ok) return { no: `the program did not answer (${answer.error})`, stop: true };
  const checked = checkPermissionAnswer(answer.response);
  if (!checked.ok) return { no: "the program's answer was not a permission result" };
  const verdict = checked.value;
  if (verdict.behavior === "deny") return { no: verdict.message ?? "", stop: verdict.interrupt === true };
  const always = applyUpdates(verdict.updatedPermissions ?? [], ask);
  const edited = verdict.updatedInput && fromClaudeToolInput(request.tool, request.input, verdict.updatedInput);
  if (edited !== undefined && canonicalJson(edited) !== canonicalJson(request.input)) return { edited };
  return always ? "always" : "yes";
}

/** `Bash(npm test)` → `{toolName: "Bash", ruleContent: "npm test"}`, as the SDK spells a rule. */
export function ruleValue(rule: string): { toolName: string; ruleContent?: string } {
  const m = /^([^(]+)\((.*)\)$/s.exec(rule);
  const [, toolName, ruleContent] = m ?? [];
  return toolName !== undefined && ruleContent !== undefined ? { toolName, ruleContent } : { toolName: rule };
}

/** True when an update asks to allow the rule from now on (granted only when it covers exactly this call). */
function applyUpdates(updates: readonly PermissionUpdate[], ask: PermissionAsk): boolean {
  let always = false;
  for (const update of updates) {
    if (update.type === "addRules" && update.behavior === "allow") always = true;
    else if (update.type === "setMode" && update.mode) {
      const refused = ask.setMode(update.mode);
      if (refused) ask.note(refused);
    } else ask.note(`synapse: note: permission update "${update.type}" is not supported; ignored`);
  }
  return always;
}
