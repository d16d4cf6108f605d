// What a session's commands run in: the OS sandbox's probe, the permission policy that depends on
// its answer, and the shell pool that starts its shells inside it. The probe starts once the first
// request has gone out, never before it (its spawn is milliseconds of the main thread, and only a
// tool call needs its answer), or earlier when something awaits `ready()`.

import type { Config, PermissionMode } from "../config/config.ts";
import type { EventSink } from "../protocol/events.ts";
import { buildPolicy } from "../policy/build-policy.ts";
import type { PermissionPolicy } from "../policy/policy-types.ts";
import { sandboxPlan } from "../sandbox/plan.ts";
import { sandboxState, sandboxWarningOnce } from "../sandbox/probe.ts";
import { type SandboxState, isSandboxed } from "../sandbox/types.ts";
import type { RunOutcome, RunRequest, ShellPool, ShellStats } from "../shell/types.ts";

export interface SessionSandbox {
  /** The probe's answer; undefined while it is still being probed. */
  readonly state: SandboxState | undefined;
  /** Whether commands run confined; read when a sub-agent starts, always after `ready()`. */
  readonly sandboxed: boolean;
  /** The policy a tool call is judged by: complete once `ready()` has resolved. */
  readonly permissions: PermissionPolicy;
  setPermissionMode(mode: PermissionMode): void;
  /** The session's one shell pool: its commands wait for the probe, its counters do not. */
  readonly shell: ShellPool;
  /** Resolves when the probe has answered and the policy and pool follow its answer; starts it if need be. */
  ready(): Promise<void>;
  /** Starts the probe if it has not started (the first request is on its way). */
  start(): void;
}

/**
 * The session's sandbox, its probe (once per process) not started yet. `checked` is the policy built
 * before anything opened (an invalid rule is a configuration error); it stands until the probe answers.
 */
export function createSessionSandbox(config: Config, checked: PermissionPolicy, emit: EventSink): SessionSandbox {
  let state: SandboxState | undefined;
  let permissions = checked;
  const pool = new PendingShellPool();
  let probed: Promise<void> | undefined;
  const probe = () =>
    sandboxState(config.sandbox, config.shell.env).then(async (answer) => {
      state = answer;
      // Commands confined by the kernel need not ask in default mode; unconfined, the policy fails
      // closed. A mode switched meanwhile (Shift+Tab) is kept.
      permissions = { ...buildPolicy(config, { sandboxed: isSandboxed(answer) }), mode: permissions.mode };
      const warning = sandboxWarningOnce(answer);
      if (warning) emit({ type: "warning", message: warning });
      // The pool's code loads only now, off the way to the first request (only commands need it).
      const { createShellPool } = await import("../shell/shell-pool.ts");
      pool.start(() => createShellPool(config.shell, sandboxPlan(config, answer)));
    });
  return {
    get state() {
      return state;
    },
    get sandboxed() {
      return state !== undefined && isSandboxed(state);
    },
    get permissions() {
      return permissions;
    },
    setPermissionMode(mode) {
      permissions = { ...permissions, mode };
    },
    shell: pool,
    ready: () => (probed ??= probe()),
    start() {
      probed ??= probe();
    },
  };
}

const NO_STATS: ShellStats = { shells_spawned: 0, shells_reused: 0, shells_retired: 0, commands_run: 0 };

/**
 * A shell pool that exists once the probe has answered. Before that no shell has started, so
 * releasing, killing and counting have nothing to act on; a command waits for the pool.
 */
class PendingShellPool implements ShellPool {
  private pool: ShellPool | undefined;
  private closed = false;
  private readonly waiting: Array<(pool: ShellPool | undefined) => void> = [];

  start(create: () => ShellPool): void {
    // Closed before the probe answered: no pool, and no shell to start.
    if (!this.closed) this.pool = create();
    for (const resolve of this.waiting.splice(0)) resolve(this.pool);
  }

  async run(request: RunRequest): Promise<RunOutcome> {
    const pool = this.pool ?? (await new Promise<ShellPool | undefined>((resolve) => this.waiting.push(resolve)));
    if (!pool) throw new Error("the session is closed");
    return pool.run(request);
  }

  releaseTask(taskId: string): void {
    this.pool?.releaseTask(taskId);
  }

  stats(): ShellStats {
    return this.pool?.stats() ?? { ...NO_STATS };
  }

  async close(): Promise<void> {
    this.closed = true;
    // A command still waiting for the probe will not run.
    if (!this.pool) for (const resolve of this.waiting.splice(0)) resolve(undefined);
    await this.pool?.close();
  }

  killAllNow(): void {
    this.pool?.killAllNow();
  }
}
