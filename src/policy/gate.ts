// The permission check in a tool call's path: the policy's decision, the user's answer when it
// asks, and — when nobody can answer (headless) — the refusal the model and the user are told.

import type { GateServices } from "./approval.ts";
import { decide, hideProtectedLines, redactSecrets } from "./policy.ts";
import { grantIsExact } from "./exact-grant.ts";
import { refusalMessage } from "./refusal-message.ts";

export { refusalMessage } from "./refusal-message.ts";

export type GateOutcome =
  /**
   * `edited`: the approver allowed the call with this input instead; judge it again (`judgeEdited`).
   * `byPolicy`: the policy allowed it by itself, nobody was asked: what the tool then opens must be
   * allowed by itself too (`openedFileProblem`), or a swap after the check could read another file.
   */
  | { ok: true; edited?: Record<string, unknown>; byPolicy?: boolean }
  /** `allowWith` is the flag that would have let the call through, when one would. */
  | { ok: false; message: string; reason: string; allowWith?: string };

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** What the model is told after a denial: move on rather than try the same call again. */
const DO_NOT_RETRY = "Do not retry this call; choose another way or tell the user what you need.";

export async function checkPermission(
  tool: string,
  input: unknown,
  cwd: string,
  services: GateServices,
): Promise<GateOutcome> {
  const policy = services.permissions;
  if (!policy) return { ok: true };
  const decision = decide(policy, { tool, input, cwd }, services.granted ?? []);
  if (decision.kind === "allow") return { ok: true, byPolicy: true };
  if (decision.kind === "deny") {
    return {
      ok: false,
      reason: decision.reason,
      message: `Permission denied: ${decision.reason}. ${DO_NOT_RETRY}`,
    };
  }
  if (!services.approve) {
    const flag = `--allow ${shellQuote(decision.rule)}`;
    return {
      ok: false,
      reason: decision.reason,
      allowWith: flag,
      message:
        `Permission denied: ${decision.reason}. This run cannot ask the user, so the call was refused ` +
        `(the user can allow it with ${flag}). Do not retry it; choose another way or tell the user what you need.`,
    };
  }
  const exact = grantIsExact(policy, { tool, input, cwd }, services.granted ?? [], decision.rule);
  const { reason, rule, dangerous } = decision;
  const answer = await services.approve({ tool, input, reason, rule, exact, dangerous });
  if (answer === "yes") return { ok: true };
  if (typeof answer === "object" && "edited" in answer) return { ok: true, edited: answer.edited };
  if (answer === "always") {
    // Never wider than what was asked: a rule not offered is not granted.
    if (exact) services.granted?.push(decision.rule);
    return { ok: true };
  }
  if (answer.stop) {
    const message =
      "This call was rejected by the user, who stopped the turn. " +
      "Do not retry it; wait for the user's next message.";
    return { ok: false, reason: "rejected by the user", message };
  }
  return { ok: false, reason: "the user said no", message: refusalMessage(answer.no) };
}

/**
 * An input the approver wrote in place of the model's, already checked against the tool's schema:
 * the approver answered for exactly it, so a question is not asked again, but a deny (a rule, plan
 * mode, a protected path) still refuses it.
 */
export function judgeEdited(tool: string, input: unknown, cwd: string, services: GateServices): GateOutcome {
  const policy = services.permissions;
  if (!policy) return { ok: true };
  const decision = decide(policy, { tool, input, cwd }, services.granted ?? []);
  if (decision.kind !== "deny") return { ok: true };
  return {
    ok: false,
    reason: decision.reason,
    message: `Permission denied for the edited input: ${decision.reason}. ${DO_NOT_RETRY}`,
  };
}

/** What a search returns, minus protected files; secret values redacted from any tool's text. */
export function screenOutput(tool: string, text: string, services: GateServices): string {
  const policy = services.permissions;
  if (!policy) return text;
  const screened =
    tool === "Glob" || tool === "Grep" ? hideProtectedLines(policy, tool, text, services.granted ?? []).text : text;
  return redactSecrets(screened, policy.secrets);
}
