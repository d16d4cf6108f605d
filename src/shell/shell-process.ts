// One persistent bash process: runs one command at a time, knows exactly when each ends (a record
// on the shell's stdout, which carries nothing else), and can kill a command with everything it
// started. Which shell runs which command is the pool's business, not this file's.

import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { exitCodeForSignal, signalNameForExit } from "./exit-code.ts";
import type { FifoStock } from "./fifo-stock.ts";
import { OutputCollector, type OutputLimits } from "./output-collector.ts";
import { OutputPipe, type PipeState } from "./output-pipe.ts";
import {
  listProcesses,
  namespaceIds,
  processStart,
  sessionMembers,
  signalAll,
  type ProcessInfo,
  type SessionIdentity,
} from "./process-table.ts";
import { exitRecordStatus, SANDBOX_WRAPPER, SHELL_NS_PID, WRAPPER_NS_PID } from "./sandbox-wrapper.ts";
import { commandScript, parseRecord, RUN_LINE, sourceLine, type ShellRecord } from "./shell-script.ts";
import type { RunOutcome } from "./types.ts";
import { type ChildProcess, runtime } from "../runtime/runtime.ts";
import { sleep } from "../runtime/portable.ts";

export interface ShellProcessOptions {
  /** Directory the shell starts in (one that surely exists: every command changes to its own). */
  cwd: string;
  /** The whole environment the shell and its commands get: without the provider keys. */
  env: Readonly<Record<string, string>>;
  /** Absolute path of bash (from the trusted PATH). */
  bash: string;
  /**
   * bwrap and its options up to `--` when the shell runs in the sandbox. Inside it the pids the
   * shell knows ($$, $!, its jobs) are the sandbox's own; the host's are looked up (see hostShellPid).
   */
  sandbox?: readonly string[];
  initPath: string;
  requestPath: string;
  stock: FifoStock;
  limits: OutputLimits;
  killGraceMs: number;
  /** Every output pipe still open, so the pool can close them all at shutdown. */
  pipes: Set<OutputPipe>;
  /** Called once when the bash process has exited, for whatever reason. */
  onExit(): void;
}

export interface ShellCommand {
  command: string;
  /** Absolute directory the command starts in. */
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  onOutput?(text: string): void;
  /** Clear variables, functions and aliases an earlier task left before running. */
  resetFirst: boolean;
}

type Ending = { kind: "record"; record: ShellRecord } | { kind: "exit" } | { kind: "timeout" } | { kind: "abort" };

/** How often a kill checks whether the processes it signalled are gone (no event tells). */
const KILL_POLL_MS = 10;

export class ShellProcess {
  readonly pid: number;
  /** The session this shell leads, told apart from a later one that reuses its id. */
  readonly session: SessionIdentity;
  alive = true;
  /** A command left the shell unable to run more (see INIT_SCRIPT): the pool replaces it. */
  spoiled = false;
  readonly exited: Promise<void>;
  private resolveExited!: () => void;
  private readonly proc: ChildProcess;
  /** Sandboxed: the pooled bash's host pid, once looked up. */
  private shellPidOnHost: number | null = null;
  private readonly header: string;
  private stdoutText = "";
  private waiting: { record(r: ShellRecord): void; exit(): void } | null = null;
  /** Process groups of background jobs, as of the last record that listed them. */
  private jobs: number[] = [];
  private killedByPool = false;
  private exitStatus: number | null = null;
  /** The last command left a trap (or stray stdout text): clear traps before the next one. */
  private trapsSet = false;
  /** Reused from command to command while no background job holds it. */
  private pipe: OutputPipe | null = null;
  private requestFd: number | null = null;
  private requestLength = 0;

  constructor(private readonly opts: ShellProcessOptions) {
    const token = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join(
      "",
    );
    this.header = `\x01${token} `;
    // A new session (setsid), so the shell leads its own session: terminal signals meant for synapse
    // do not reach it, and "everything it started" is everything in that session.
    const bash = [opts.bash, "--noprofile", "--norc"];
    const argv = opts.sandbox ? [...opts.sandbox, ...bash, "-c", SANDBOX_WRAPPER, opts.bash, token] : bash;
    this.proc = runtime.spawn(argv, {
      cwd: opts.cwd,
      env: { ...opts.env },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
      newSession: true,
    });
    this.pid = this.proc.pid;
    this.session = { sid: this.pid, start: processStart(this.pid) };
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.proc.exited.then((code) => {
      const signal = this.proc.signalCode;
      this.shellExited(signal ? (exitCodeForSignal(signal) ?? 128) : code);
    });
    this.readRecords();
    this.send(sourceLine(opts.initPath, opts.requestPath, token));
  }

  async run(cmd: ShellCommand): Promise<RunOutcome> {
    const started = performance.now();
    const collector = new OutputCollector(this.opts.limits, cmd.onOutput, this.opts.requestPath);
    this.pipe ??= await this.newPipe();
    const pipe = this.pipe;
    pipe.begin((bytes) => collector.write(bytes));

    let ending: Ending = { kind: "exit" };
    let state: PipeState;
    try {
      if (this.alive) {
        this.writeRequest(
          commandScript({
            command: cmd.command,
            cwd: cmd.cwd,
            fifo: pipe.path,
            clearTraps: this.trapsSet,
            resetTask: cmd.resetFirst,
          }),
        );
        this.trapsSet = false;
        const ended = this.waitForEnd(cmd);
        this.send(RUN_LINE);
        ending = await ended;
      }
      if (ending.kind === "timeout" || ending.kind === "abort") await this.terminate(false);
    } finally {
      // Even if something above threw, the pipe must stop polling.
      state = pipe.finish();
    }
    if (state === "held") pipe.drainAndClose();
    else if (!this.alive) pipe.abandon();
    if (state === "held" || !this.alive) this.pipe = null;
    const output = collector.end();

    let exitCode: number | null = null;
    let finalCwd = cmd.cwd;
    if (ending.kind === "record") {
      exitCode = ending.record.status;
      finalCwd = ending.record.pwd || cmd.cwd;
      if (ending.record.jobs) this.jobs = ending.record.jobs;
      if (ending.record.limitsLost) this.spoiled = true;
    } else if (ending.kind === "exit" && !this.killedByPool) {
      exitCode = this.exitStatus;
    }
    if (!this.alive) this.closeRequest();
    return {
      output,
      lines: collector.lines,
      exitCode,
      signal: signalNameForExit(exitCode),
      timedOut: ending.kind === "timeout",
      interrupted: ending.kind === "abort" || (ending.kind === "exit" && this.killedByPool),
      finalCwd,
      durationMs: performance.now() - started,
    };
  }

  /**
   * Kills the shell and what it runs: TERM first, KILL after the grace period. Background jobs
   * left by earlier commands are spared unless `everything` (they belong to the session, not to
   * the command being stopped). The shell is frozen first so it cannot go on with the rest of the
   * command, or start new jobs, while its children die.
   */
  async terminate(everything: boolean): Promise<void> {
    this.killedByPool = true;
    const shellPid = this.hostShellPid();
    let spare = new Set<number>();
    const others = () => {
      const members = sessionMembers(this.session);
      spare = everything ? new Set() : this.jobGroups(members);
      return members.filter((p) => p.pid !== shellPid && !spare.has(p.pgid) && !this.isSandboxItself(p));
    };
    if (this.alive && shellPid !== null) sendSignal(shellPid, "SIGSTOP");
    signalAll(others(), "SIGTERM", spare);
    const deadline = performance.now() + this.opts.killGraceMs;
    while (performance.now() < deadline && others().length > 0) {
      await sleep(Math.min(KILL_POLL_MS, Math.max(0, deadline - performance.now())));
    }
    signalAll(others(), "SIGKILL", spare);
    // Only while unreaped is the pid surely still the shell's (a sandboxed one: while bwrap runs).
    // A sandboxed shell not found (gone, or not started yet) goes with the whole sandbox.
    if (this.alive) sendSignal(shellPid ?? this.pid, "SIGKILL");
    await this.exited;
    this.closeRequest();
  }

  /** Synchronous SIGKILL of the whole session (for process exit handlers). */
  killNow(table: ProcessInfo[] = listProcesses()): void {
    this.killedByPool = true;
    signalAll(sessionMembers(this.session, table), "SIGKILL");
    if (this.alive) sendSignal(this.pid, "SIGKILL");
    this.closeRequest();
  }

  /** Lets an idle shell end by itself (end of input); its background jobs keep running. */
  async retire(): Promise<void> {
    try {
      this.proc.stdin.end();
    } catch {
      // already closed
    }
    const kill = () => this.alive && sendSignal(this.hostShellPid() ?? this.pid, "SIGKILL");
    const timer = setTimeout(kill, this.opts.killGraceMs);
    await this.exited;
    clearTimeout(timer);
    this.closeRequest();
    // The shell held the pipe's write end between commands only if a command left it open.
    if (this.pipe?.finish() === "clean") this.pipe.abandon();
    else this.pipe?.drainAndClose();
    this.pipe = null;
  }

  /** The pooled bash's pid on the host: itself unsandboxed, else found by its pid inside. */
  private hostShellPid(): number | null {
    if (!this.opts.sandbox) return this.pid;
    if (this.shellPidOnHost !== null) return this.shellPidOnHost;
    const found = sessionMembers(this.session).find((p) => namespaceIds(p.pid)?.pid === SHELL_NS_PID);
    this.shellPidOnHost = found?.pid ?? null;
    return this.shellPidOnHost;
  }

  /** bwrap on the host, its pid 1 and the wrapper: killing them would end the jobs being spared. */
  private isSandboxItself(p: ProcessInfo): boolean {
    if (!this.opts.sandbox) return false;
    if (p.pid === this.pid) return true;
    const inside = namespaceIds(p.pid)?.pid;
    return inside === 1 || inside === WRAPPER_NS_PID;
  }

  /** Host process groups of the background jobs to spare (the shell names them in its own numbers). */
  private jobGroups(members: ProcessInfo[]): Set<number> {
    if (!this.opts.sandbox) return new Set(this.jobs);
    const jobs = new Set(this.jobs);
    const groups = new Set<number>();
    for (const p of members) {
      const ids = jobs.size > 0 ? namespaceIds(p.pid) : null;
      if (ids && jobs.has(ids.pgid)) groups.add(p.pgid);
    }
    return groups;
  }

  /** Once, however the shell's end is learnt (its process, or the sandbox wrapper's record). */
  private shellExited(status: number | null): void {
    if (!this.alive) return;
    this.alive = false;
    this.exitStatus = status;
    this.waiting?.exit();
    this.opts.onExit();
    this.resolveExited();
  }

  private async newPipe(): Promise<OutputPipe> {
    const path = this.opts.stock.takeNow() ?? (await this.opts.stock.take());
    const pipe = new OutputPipe(path);
    this.opts.pipes.add(pipe);
    pipe.closed.then(() => this.opts.pipes.delete(pipe));
    return pipe;
  }

  /** One write at offset 0; the file is cut only when the new request is shorter (`.` reads to the end). */
  private writeRequest(text: string): void {
    const bytes = Buffer.from(text);
    this.requestFd ??= openSync(this.opts.requestPath, "w");
    writeSync(this.requestFd, bytes, 0, bytes.length, 0);
    if (bytes.length < this.requestLength) ftruncateSync(this.requestFd, bytes.length);
    this.requestLength = bytes.length;
  }

  private closeRequest(): void {
    if (this.requestFd === null) return;
    try {
      closeSync(this.requestFd);
    } catch {
      // already closed
    }
    this.requestFd = null;
  }

  private waitForEnd(cmd: ShellCommand): Promise<Ending> {
    return new Promise((resolve) => {
      const finish = (ending: Ending) => {
        clearTimeout(timer);
        cmd.signal?.removeEventListener("abort", onAbort);
        this.waiting = null;
        resolve(ending);
      };
      const onAbort = () => finish({ kind: "abort" });
      const timer = setTimeout(() => finish({ kind: "timeout" }), cmd.timeoutMs);
      this.waiting = { record: (record) => finish({ kind: "record", record }), exit: () => finish({ kind: "exit" }) };
      if (!this.alive) finish({ kind: "exit" });
      else if (cmd.signal?.aborted) onAbort();
      else cmd.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private send(text: string): void {
    try {
      this.proc.stdin.write(text);
      this.proc.stdin.flush();
    } catch {
      // The shell is gone; the exit handler reports it.
    }
  }

  private async readRecords(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const bytes of this.proc.stdout) this.takeStdout(decoder.decode(bytes, { stream: true }));
    } catch {
      // The pipe broke: the shell is gone, and the exit handler reports it.
    }
  }

  private takeStdout(text: string): void {
    this.stdoutText += text;
    for (;;) {
      const start = this.stdoutText.indexOf(this.header);
      if (start === -1) {
        // Text before a record is `trap -p` output, or a trap's own noise: traps to clear.
        if (this.stdoutText.length > this.header.length) this.trapsSet = true;
        this.stdoutText = this.stdoutText.slice(-this.header.length);
        return;
      }
      if (start > 0) this.trapsSet = true;
      const end = this.stdoutText.indexOf("\0", start);
      if (end === -1) {
        this.stdoutText = this.stdoutText.slice(start);
        return;
      }
      const body = this.stdoutText.slice(start + this.header.length, end);
      this.stdoutText = this.stdoutText.slice(end + 1);
      const exitStatus = this.opts.sandbox ? exitRecordStatus(body) : null;
      if (exitStatus !== null) this.shellExited(exitStatus);
      else this.waiting?.record(parseRecord(body));
    }
  }
}

function sendSignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
