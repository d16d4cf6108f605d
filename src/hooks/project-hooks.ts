// Which of a project's own hooks may run. A repository's `.synapse/config.json` is the easiest
// way for a hostile repository to run code the moment synapse starts, so its hooks run only once
// the user approved that exact entry for that project (remembered as project MCP servers are:
// policy/project-approvals.ts), or this run has --allow-project-hooks and the hooks are confined by
// the OS sandbox. Otherwise they do not run, and the user is told once how to allow them.

import { isApproved, recordApproval } from "../policy/project-approvals.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../policy/approval.ts";
import { type ConfiguredHook, hookLabel } from "./command-source.ts";

export interface ProjectHookGate {
  home: string;
  cwd: string;
  /** --allow-project-hooks. */
  allowProject: boolean;
  /** Hook commands run inside the OS sandbox. */
  sandboxed: boolean;
  /** Asks the user about one hook (interactive sessions); absent: nobody can answer. */
  ask?(hook: ConfiguredHook): Promise<boolean>;
  warn(message: string): void;
}

const approvalName = (h: ConfiguredHook) => `${h.event}:${h.matcher ?? ""}:${h.command}`;
const approvalEntry = (h: ConfiguredHook) => ({
  event: h.event,
  matcher: h.matcher ?? null,
  command: h.command,
  timeout: h.timeoutS,
});

/** The project hooks that may run this session (asking about the others when someone can answer). */
export async function admitProjectHooks(
  hooks: readonly ConfiguredHook[],
  gate: ProjectHookGate,
): Promise<ConfiguredHook[]> {
  if (!hooks.length) return [];
  if (gate.allowProject && gate.sandboxed) return [...hooks];
  if (gate.allowProject) {
    gate.warn("--allow-project-hooks applies only when commands run in the OS sandbox: ignored");
  }
  const admitted: ConfiguredHook[] = [];
  const waiting: ConfiguredHook[] = [];
  for (const hook of hooks) {
    if (await isApproved(gate.home, gate.cwd, approvalName(hook), approvalEntry(hook), "hooks")) admitted.push(hook);
    else waiting.push(hook);
  }
  const refused: ConfiguredHook[] = [];
  for (const hook of waiting) {
    if (!gate.ask || !(await gate.ask(hook))) {
      refused.push(hook);
      continue;
    }
    admitted.push(hook);
    await recordApproval(gate.home, gate.cwd, approvalName(hook), approvalEntry(hook), "hooks").catch((err) => {
      gate.warn(`could not remember the approval of hook ${hookLabel(hook)}: ${err}`);
    });
  }
  if (refused.length) {
    const n = refused.length;
    gate.warn(
      `${n} hook${n > 1 ? "s" : ""} of the project's ${refused[0]?.origin} not run: not approved ` +
        "(approve in an interactive session, or run with --allow-project-hooks)",
    );
  }
  // In the order written, user's approvals aside.
  return hooks.filter((h) => admitted.includes(h));
}

/** A project hook put to the user through the approval prompt. */
export function askProjectHook(
  approve: (request: ApprovalRequest) => Promise<ApprovalAnswer>,
): (hook: ConfiguredHook) => Promise<boolean> {
  return async (hook) => {
    const answer = await approve({
      tool: "Hook",
      input: { event: hook.event, matcher: hook.matcher ?? "*", command: hook.command },
      reason:
        `the project's ${hook.origin} asks to run a ${hook.event} hook ` +
        "(a command of its choice, at each such event); " +
        "yes runs it, now and in later sessions while this entry stays the same",
      rule: "",
      exact: false,
    });
    return answer === "yes" || answer === "always";
  };
}
