// What a PreToolUse verdict does to the permission gate's question. "allow" answers the question
// the policy would ask (never a deny rule: the policy decides deny before it asks). "ask" puts a
// question of its own to the user first, even where the policy would not ask; a run that cannot
// ask refuses the call. A yes to the hook's question stands for the policy's question too.

import type { ApprovalAnswer, GateServices } from "../policy/approval.ts";
import { refusalMessage } from "../policy/refusal-message.ts";
import type { HookedCall, PreToolVerdict } from "./types.ts";

export type HookGate = { services: GateServices } | { refused: string; reason: string };

const answered = (services: GateServices): GateServices => ({
  ...services,
  approve: async (): Promise<ApprovalAnswer> => "yes",
});

export async function gateAfterHooks(
  verdict: PreToolVerdict,
  call: HookedCall,
  services: GateServices,
): Promise<HookGate> {
  if (verdict.ask === undefined) return { services: verdict.allow ? answered(services) : services };
  const reason = `a PreToolUse hook asks for approval: ${verdict.ask}`;
  if (!services.approve) {
    return {
      reason,
      refused:
        `Permission denied: ${reason}. This run cannot ask the user, so the call was refused. ` +
        "Do not retry it; choose another way or tell the user what you need.",
    };
  }
  const answer = await services.approve({ tool: call.name, input: call.input, reason, rule: "", exact: false });
  if (answer === "yes" || answer === "always") return { services: answered(services) };
  // An SDK program's edited input: the gate's own question (if the policy asks one) hears it again.
  if ("edited" in answer) return { services: { ...services, approve: async () => answer } };
  if (answer.stop) {
    const refused =
      "This call was rejected by the user, who stopped the turn. Do not retry it; wait for the user's next message.";
    return { reason: "rejected by the user", refused };
  }
  return { reason: "the user said no", refused: refusalMessage(answer.no ?? "") };
}
