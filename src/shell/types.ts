// What the rest of the program sees of the shell pool.

export interface RunRequest {
  command: string;
  /** Absolute directory the command must start in. */
  cwd: string;
  /** The task (main session or sub-agent) asking; shells prefer their own task. */
  taskId: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Cleaned output lines while the command runs (for a live tail). */
  onOutput?(text: string): void;
}

export interface RunOutcome {
  /** Cleaned and truncated output (stdout and stderr interleaved). */
  output: string;
  /** How many lines the command printed, before the output was cut (undefined: not counted). */
  lines?: number;
  /** null when the command was killed before it reported a status. */
  exitCode: number | null;
  /** Signal name when the command died of one (e.g. "SIGKILL"). */
  signal?: string;
  timedOut: boolean;
  interrupted: boolean;
  /** Directory the command ended in (differs from cwd after e.g. `cd src`). */
  finalCwd: string;
  durationMs: number;
  /** What the pool did about the command's effects that the model and the user must hear of. */
  notices?: string[];
}

export interface ShellStats {
  shells_spawned: number;
  shells_reused: number;
  shells_retired: number;
  commands_run: number;
}

export interface ShellPool {
  run(request: RunRequest): Promise<RunOutcome>;
  /** Unbinds a finished task's shells so others may reuse them (they are not killed). */
  releaseTask(taskId: string): void;
  stats(): ShellStats;
  /** Kills every shell and every process group they started. Safe to call twice. */
  close(): Promise<void>;
  /** Synchronous SIGKILL of everything the pool started, for process 'exit' handlers. */
  killAllNow(): void;
}
