// The shell pool: keeps persistent bash processes and hands each command one that is free,
// preferring the asking task's own shell in or near the right directory. Caps the number of
// shells, closes surplus idle ones, and makes sure nothing it started outlives it.

import { lstatSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ShellConfig } from "../config/config.ts";
import { trustedBinary } from "../runtime/trusted-path.ts";
import { bwrapArgs, POOL_CARRY_DIR, type SandboxProfile } from "../sandbox/profile.ts";
import { GitRedirectGuard, sweptNotice } from "../sandbox/git-redirect-guard.ts";
import type { OutputPipe } from "./output-pipe.ts";
import { resolveRealDir } from "./path-relation.ts";
import { createPoolWorkspace, type PoolWorkspace, removePoolWorkspace } from "./pool-workspace.ts";
import { listProcesses, type SessionIdentity, sessionMembers, signalAll } from "./process-table.ts";
import { chooseShell, type ShellState } from "./shell-choice.ts";
import { ShellProcess } from "./shell-process.ts";
import { quoteForShell } from "./shell-script.ts";
import { sleep } from "../runtime/portable.ts";
import { SessionWatchdogs } from "./session-watchdogs.ts";
import type { RunOutcome, RunRequest, ShellPool, ShellStats } from "./types.ts";
import { itemAt } from "../text/checked-index.ts";

interface Slot extends ShellState {
  shell: ShellProcess;
  /** The task that ran the last command here: another task gets the shell only after a reset. */
  lastTaskId: string | null;
  /**
   * Times this shell was asked to run a command in another directory than the command before
   * (past maxCd the shell is replaced). A command's own `cd` (`cd sub && make`) is no move: the
   * next command is asked for the same directory again.
   */
  cdCount: number;
  /** Real path of the directory the last command here was asked to run in. */
  askedDir: string | null;
}

interface Waiter {
  taskId: string;
  dir: string;
  resolve(slot: Slot | null): void;
}

/** How the pool's shells are confined: bwrap with this profile, and the allow-listed environment. */
export interface PoolSandbox {
  bwrap: string;
  /**
   * Read again for each shell: bwrap refuses to start when a path it names has gone (a credential
   * store removed mid-session), which would leave every later command without a shell.
   */
  profile(): Omit<SandboxProfile, "poolDir">;
  env: Readonly<Record<string, string>>;
  /** The workspace roots, whose `.git/commondir` is swept after each command (git-redirect-guard.ts). */
  roots: readonly string[];
}

/**
 * Creates no process until the first command. While it has shells, the pool keeps the program
 * alive: close() it when done (and call killAllNow() from a process 'exit' handler).
 */
export function createShellPool(config: ShellConfig, sandbox?: PoolSandbox): ShellPool {
  return new Pool(config, sandbox);
}

class Pool implements ShellPool {
  private readonly slots: Slot[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly pipes = new Set<OutputPipe>();
  /** Real paths of the directories seen, so a command need not ask the file system each time. */
  private readonly realDirs = new Map<string, string>();
  /** Sessions of shells that are gone but may still hold background jobs. */
  private readonly orphanSessions = new Map<number, SessionIdentity>();
  /** Each kills its shell's session if synapse dies without cleaning up (see watchdog.ts). */
  private readonly watchdogs: SessionWatchdogs;
  private readonly retiring = new Set<Promise<void>>();
  /** By task: the state file of its last shell replaced for moving too often (see saveState). */
  private readonly carried = new Map<string, string>();
  private readonly counters: ShellStats = { shells_spawned: 0, shells_reused: 0, shells_retired: 0, commands_run: 0 };
  private workspace: PoolWorkspace | null = null;
  /** Made before the first command, so what is there then is the user's. */
  private gitGuard: GitRedirectGuard | undefined;
  private reapTimer: ReturnType<typeof setTimeout> | null = null;
  private closing: Promise<void> | null = null;
  private nextShellId = 0;

  constructor(
    private readonly config: ShellConfig,
    private readonly sandbox?: PoolSandbox,
  ) {
    this.watchdogs = new SessionWatchdogs(config.env);
  }

  /** The time limit counts from when the command gets its shell, not while it waits for one. */
  async run(req: RunRequest): Promise<RunOutcome> {
    const started = performance.now();
    if (this.closing) throw new Error("the shell pool is closed");
    if (req.signal?.aborted) return notRun(req, started);
    const dir = this.realDir(req.cwd);
    if (this.sandbox) this.gitGuard ??= new GitRedirectGuard(this.sandbox.roots);
    const slot = await this.acquire(req.taskId, dir, req.signal);
    if (!slot) return notRun(req, started);

    const resetFirst = slot.lastTaskId !== null && slot.lastTaskId !== req.taskId;
    if (slot.askedDir !== null && slot.askedDir !== dir) slot.cdCount++;
    slot.askedDir = dir;
    // A replaced shell's exported variables and functions, restored in the task's next new shell.
    const carried = slot.lastTaskId === null ? this.takeCarried(req.taskId) : undefined;
    slot.taskId = req.taskId;
    slot.lastTaskId = req.taskId;
    this.counters.commands_run++;
    let outcome: RunOutcome | undefined;
    try {
      outcome = await slot.shell.run({
        command: carried ? `builtin . ${quoteForShell(carried)} >/dev/null 2>&1; ${req.command}` : req.command,
        cwd: req.cwd,
        timeoutMs: req.timeoutMs,
        signal: req.signal,
        onOutput: req.onOutput,
        resetFirst,
      });
      const notices = (this.gitGuard?.sweep() ?? []).map(sweptNotice);
      return { ...outcome, durationMs: performance.now() - started, ...(notices.length ? { notices } : {}) };
    } finally {
      if (outcome && slot.shell.alive) slot.dir = outcome.finalCwd === req.cwd ? dir : this.realDir(outcome.finalCwd);
      if (carried) rmSync(carried, { force: true });
      if (outcome && this.dueForReplacement(slot)) await this.saveState(slot, req);
      this.release(slot);
    }
  }

  private dueForReplacement(slot: Slot): boolean {
    return slot.cdCount > this.config.maxCd && slot.shell.alive && !slot.shell.spoiled;
  }

  /**
   * Before a shell that moved too often is replaced: its exported variables and functions (an
   * activated virtualenv, `nvm use`) go to a file its task's next new shell sources first.
   */
  private async saveState(slot: Slot, req: RunRequest): Promise<void> {
    const file = join(this.ensureWorkspace().dir, POOL_CARRY_DIR, `carry-${slot.shell.pid}`);
    const functions =
      'for __f in $(builtin compgen -A function); do [[ $__f == __sy* ]] || builtin declare -f "$__f"; done';
    const command = `{ builtin export -p; ${functions}; } > ${quoteForShell(file)} 2>/dev/null`;
    try {
      const request = { command, cwd: req.cwd, timeoutMs: STATE_SAVE_TIMEOUT_MS, resetFirst: false };
      const saved = await slot.shell.run(request);
      if (saved.exitCode !== 0) return;
      // The folder is writable from inside the sandbox: a command may have put a link there, which
      // this process (outside the sandbox) must not follow. Read a regular file only; write anew.
      if (!lstatSync(file).isFile()) return;
      // What the new shell sets for itself (its directory, its level) is not carried.
      const lines = readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => !NOT_CARRIED.test(l));
      rmSync(file, { force: true });
      writeFileSync(file, lines.join("\n"), { flag: "wx", mode: 0o600 });
      this.carried.set(req.taskId, file);
    } catch {
      // Nothing carried: the task's next shell starts clean, as before.
    }
  }

  private takeCarried(taskId: string): string | undefined {
    const file = this.carried.get(taskId);
    this.carried.delete(taskId);
    return file;
  }

  releaseTask(taskId: string): void {
    for (const slot of this.slots) if (slot.taskId === taskId) slot.taskId = null;
  }

  stats(): ShellStats {
    return { ...this.counters };
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  killAllNow(): void {
    this.closing ??= Promise.resolve();
    this.stopWaiting();
    const table = listProcesses();
    for (const slot of this.slots) slot.shell.killNow(table);
    for (const session of this.orphanSessions.values()) signalAll(sessionMembers(session, table), "SIGKILL");
    this.watchdogs.stopAllNow();
    for (const pipe of this.pipes) pipe.abandon();
    this.removeWorkspace();
    this.gitGuard?.sweep();
  }

  private async shutdown(): Promise<void> {
    this.stopWaiting();
    await Promise.all(this.slots.map((slot) => slot.shell.terminate(true)));
    await Promise.all(this.retiring);
    await this.killOrphans();
    // Last, so that the sessions stay guarded should synapse die while they are being killed.
    await this.watchdogs.stopAll();
    for (const pipe of this.pipes) pipe.abandon();
    await this.workspace?.stock.settled();
    this.removeWorkspace();
    // The jobs are gone: nothing can write it again after this look.
    this.gitGuard?.sweep();
  }

  private acquire(taskId: string, dir: string, signal?: AbortSignal): Promise<Slot | null> {
    const slot = this.take(taskId, dir);
    if (slot) return Promise.resolve(slot);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        taskId,
        dir,
        resolve: (s) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(s);
        },
      };
      const onAbort = () => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(null);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** A free shell for this command, marked busy, or null when the pool is full and all are busy. */
  private take(taskId: string, dir: string): Slot | null {
    const choice = chooseShell(this.slots, taskId, dir, this.slots.length < this.config.poolMax);
    if (choice.kind === "wait") return null;
    if (choice.kind === "reuse") {
      choice.shell.busy = true;
      this.counters.shells_reused++;
      return choice.shell;
    }
    const workspace = this.ensureWorkspace();
    const id = ++this.nextShellId;
    const shell: ShellProcess = new ShellProcess({
      cwd: workspace.dir,
      env: this.sandbox?.env ?? this.config.env,
      bash: trustedBinary("bash") ?? "/bin/bash",
      sandbox: this.sandboxArgv(workspace.dir),
      initPath: workspace.initPath,
      requestPath: join(workspace.dir, `request-${id}`),
      stock: workspace.stock,
      limits: { maxLines: this.config.outputMaxLines, maxChars: this.config.outputMaxChars },
      killGraceMs: this.config.killGraceMs,
      pipes: this.pipes,
      // A shell that dies while idle (killed from outside, say) must not be handed a command.
      onExit: () => {
        if (!slot.busy) this.retire(slot);
      },
    });
    this.watchdogs.guard(workspace.watchdogPath, shell.pid);
    const slot: Slot = {
      shell,
      dir,
      taskId,
      lastTaskId: null,
      cdCount: 0,
      askedDir: null,
      busy: true,
      lastUsed: Date.now(),
    };
    this.slots.push(slot);
    this.counters.shells_spawned++;
    return slot;
  }

  private release(slot: Slot): void {
    slot.busy = false;
    slot.lastUsed = Date.now();
    if (!slot.shell.alive || slot.shell.spoiled) this.retire(slot);
    else if (slot.cdCount > this.config.maxCd) this.retire(slot);
    this.wakeWaiters();
    this.scheduleReap();
  }

  /** Takes a shell out of service; background jobs it leaves are killed when the pool closes. */
  private retire(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at === -1) return;
    this.slots.splice(at, 1);
    if (!this.closing) this.counters.shells_retired++;
    const sid = slot.shell.pid;
    this.orphanSessions.set(sid, slot.shell.session);
    const done = slot.shell.retire().then(() => {
      if (sessionMembers(slot.shell.session).length === 0) {
        this.orphanSessions.delete(sid);
        this.watchdogs.stop(sid);
      }
      this.retiring.delete(done);
    });
    this.retiring.add(done);
  }

  private wakeWaiters(): void {
    while (this.waiters.length > 0 && !this.closing) {
      const waiter = itemAt(this.waiters, 0);
      const slot = this.take(waiter.taskId, waiter.dir);
      if (!slot) return;
      this.waiters.shift();
      waiter.resolve(slot);
    }
  }

  private stopWaiting(): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve(null);
    if (this.reapTimer) clearTimeout(this.reapTimer);
    this.reapTimer = null;
  }

  /** Idle shells beyond idleMax are closed once they have been idle for idleMs. */
  private scheduleReap(): void {
    if (this.reapTimer || this.closing) return;
    const idle = this.slots.filter((s) => !s.busy);
    if (idle.length <= this.config.idleMax) return;
    const oldest = Math.min(...idle.map((s) => s.lastUsed));
    this.reapTimer = setTimeout(() => this.reap(), Math.max(0, oldest + this.config.idleMs - Date.now()));
    // An idle pool must not keep the program alive.
    this.reapTimer.unref();
  }

  private reap(): void {
    this.reapTimer = null;
    const now = Date.now();
    // Unbound shells go first: a bound one may still be wanted by its task.
    const idle = this.slots
      .filter((s) => !s.busy)
      .sort((x, y) => Number(x.taskId !== null) - Number(y.taskId !== null) || x.lastUsed - y.lastUsed);
    let excess = idle.length - this.config.idleMax;
    for (const slot of idle) {
      if (excess <= 0) break;
      if (now - slot.lastUsed < this.config.idleMs) continue;
      this.retire(slot);
      excess--;
    }
    this.scheduleReap();
  }

  private async killOrphans(): Promise<void> {
    const members = () => {
      const table = listProcesses();
      return [...this.orphanSessions.values()].flatMap((session) => sessionMembers(session, table));
    };
    signalAll(members(), "SIGTERM");
    const deadline = performance.now() + this.config.killGraceMs;
    while (members().length > 0 && performance.now() < deadline) await sleep(10);
    signalAll(members(), "SIGKILL");
    this.orphanSessions.clear();
  }

  /**
   * Cached: the real path only steers which shell is chosen (every command still starts with a
   * `cd` to the path as given), so a stale entry costs at most a less fitting choice.
   */
  private realDir(path: string): string {
    let real = this.realDirs.get(path);
    if (real === undefined) {
      if (this.realDirs.size >= 1024) this.realDirs.clear();
      real = resolveRealDir(path);
      this.realDirs.set(path, real);
    }
    return real;
  }

  /** bwrap and its options up to `--`, the pool's folder bound read-only; undefined unsandboxed. */
  private sandboxArgv(poolDir: string): string[] | undefined {
    if (!this.sandbox) return undefined;
    return [this.sandbox.bwrap, ...bwrapArgs({ ...this.sandbox.profile(), poolDir })];
  }

  private ensureWorkspace(): PoolWorkspace {
    this.workspace ??= createPoolWorkspace(this.config.env);
    return this.workspace;
  }

  private removeWorkspace(): void {
    if (this.workspace) removePoolWorkspace(this.workspace);
    this.workspace = null;
  }
}

const STATE_SAVE_TIMEOUT_MS = 5000;
/** `export -p` lines a new shell must keep its own values for. */
const NOT_CARRIED = /^declare -[a-zA-Z]*x[a-zA-Z]* (PWD|OLDPWD|SHLVL|_)(=|$)/;

/** The outcome of a command that never started (interrupted before it got a shell). */
function notRun(req: RunRequest, started: number): RunOutcome {
  return {
    output: "",
    exitCode: null,
    timedOut: false,
    interrupted: true,
    finalCwd: req.cwd,
    durationMs: performance.now() - started,
  };
}
