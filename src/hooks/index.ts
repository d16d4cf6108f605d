// Hooks: user commands (and SDK callbacks) that hear the session's events and may block, allow or
// add context. Layer: below agent and executor (both call it), above policy and sandbox.
//
// Where things are:
// - the interface every hook source implements: `HookSource` in types.ts. A source gets each event
//   (Claude Code's JSON, `HookEventInput` in protocol/hook-events.ts) and returns one `HookOutcome`
//   per hook it ran. Config commands are `CommandHookSource` (command-source.ts); the Agent SDK's
//   `hook_callback`s plug in the same way: pick the callbacks whose matcher selects the event
//   (`matcherSelects` in matcher.ts), send each the event, turn each reply into an outcome with
//   `outcomeFromJson` (hook-output.ts), and add the source with `SessionHooks.addSource`.
// - combining outcomes and firing events: session-hooks.ts (`SessionHooks`); the tool-call path
//   needs only its `ToolHooks` side (types.ts), which a sub-agent's worker implements remotely.
// - running one command in the sandbox: hook-process.ts; which project hooks may run:
//   project-hooks.ts.

import { join } from "node:path";
import type { ApprovalAnswer, ApprovalRequest } from "../policy/approval.ts";
import { RULE_TOOLS } from "../policy/rule.ts";
import type { HooksConfig } from "../protocol/hook-events.ts";
import { trustedBinary } from "../runtime/trusted-path.ts";
import type { SandboxPlan } from "../sandbox/plan.ts";
import { bwrapArgs } from "../sandbox/profile.ts";
import { CommandHookSource, type LoadedHooks, flattenSettings } from "./command-source.ts";
import { strayToolMatchers } from "./matcher.ts";
import { admitProjectHooks, askProjectHook } from "./project-hooks.ts";
import { SessionHooks } from "./session-hooks.ts";

export { MAX_STOP_CONTINUATIONS, SessionHooks, type StartState } from "./session-hooks.ts";
export type { ConfiguredHook } from "./command-source.ts";
export { gateAfterHooks } from "./hook-gate.ts";
export { hookToolResponse } from "./hook-tool-response.ts";
export type { HookOutcome, HookSource, ToolHooks, RunHooks, PreToolVerdict, HookedCall } from "./types.ts";

export interface HookSetup {
  hooks: HooksConfig | undefined;
  /** SYNAPSE_HOME: where approvals of project hooks are kept. */
  home: string;
  cwd: string;
  sessionId: string;
  sessionDir: string;
  resumed: boolean;
  permissionMode(): string;
  /** The sandbox commands run in, once probed; undefined: unconfined. */
  sandboxPlan(): Promise<SandboxPlan | undefined>;
  /** Commands' environment when unconfined (the provider keys already out). */
  env: Readonly<Record<string, string>>;
  /** Asks the user (interactive sessions): here, about a project's hooks. */
  approve?(request: ApprovalRequest): Promise<ApprovalAnswer>;
  warn(message: string): void;
}

/** The session's hooks: the config files' commands as its first source (none configured: no source). */
export function createSessionHooks(setup: HookSetup): SessionHooks {
  const transcriptPath = join(setup.sessionDir, "messages.jsonl");
  const hooks = new SessionHooks({
    sessionId: setup.sessionId,
    transcriptPath,
    cwd: setup.cwd,
    startSource: setup.resumed ? "resume" : "startup",
    permissionMode: setup.permissionMode,
    warn: setup.warn,
  });
  const config = setup.hooks;
  const user = config ? flattenSettings(config.user, "user", "user config") : [];
  const project = config ? flattenSettings(config.project, "project", config.projectOrigin) : [];
  if (!user.length && !project.length) return hooks;
  let loaded: Promise<LoadedHooks> | undefined;
  const load = async (): Promise<LoadedHooks> => {
    const plan = await setup.sandboxPlan();
    const allowed = await admitProjectHooks(project, {
      home: setup.home,
      cwd: setup.cwd,
      allowProject: config?.allowProject ?? false,
      sandboxed: plan !== undefined,
      ask: setup.approve ? askProjectHook(setup.approve) : undefined,
      warn: setup.warn,
    });
    const runWith = {
      cwd: setup.cwd,
      bash: trustedBinary("bash") ?? "/bin/bash",
      // Claude Code's name for the project folder, which hook scripts use to find themselves.
      env: { ...(plan ? plan.env : setup.env), CLAUDE_PROJECT_DIR: setup.cwd, SYNAPSE_PROJECT_DIR: setup.cwd },
      // Its own session's transcript (`transcript_path`) is the one file of synapse's data it can read.
      sandboxArgv: plan ? () => [plan.bwrap, ...bwrapArgs({ ...plan.profile(), shown: [transcriptPath] })] : undefined,
    };
    const hooks = [...user, ...allowed];
    for (const { event, matcher } of strayToolMatchers(hooks, RULE_TOOLS)) {
      setup.warn(
        `${event} hooks with matcher "${matcher}" never run: it selects none of the tools ` +
          `(${RULE_TOOLS.join(", ")}, mcp__<server>__<tool>; names are case-sensitive)`,
      );
    }
    return { hooks, runWith };
  };
  hooks.addSource(new CommandHookSource(() => (loaded ??= load())));
  return hooks;
}
