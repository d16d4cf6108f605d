// Reads a shell exit status: above 128 it means "killed by signal (status - 128)", and a signal
// name tells the model more than a bare number. Matches Roo-Code's interpretExitCode.

export interface ExitCodeInfo {
  exitCode: number | undefined;
  signal?: number;
  signalName?: string;
  coreDumpPossible?: boolean;
}

const SIGNAL_NAMES: Record<number, string> = {
  1: "SIGHUP",
  2: "SIGINT",
  3: "SIGQUIT",
  4: "SIGILL",
  5: "SIGTRAP",
  6: "SIGABRT",
  7: "SIGBUS",
  8: "SIGFPE",
  9: "SIGKILL",
  10: "SIGUSR1",
  11: "SIGSEGV",
  12: "SIGUSR2",
  13: "SIGPIPE",
  14: "SIGALRM",
  15: "SIGTERM",
  16: "SIGSTKFLT",
  17: "SIGCHLD",
  18: "SIGCONT",
  19: "SIGSTOP",
  20: "SIGTSTP",
  21: "SIGTTIN",
  22: "SIGTTOU",
  23: "SIGURG",
  24: "SIGXCPU",
  25: "SIGXFSZ",
  26: "SIGVTALRM",
  27: "SIGPROF",
  28: "SIGWINCH",
  29: "SIGIO",
  30: "SIGPWR",
  31: "SIGSYS",
  34: "SIGRTMIN",
  64: "SIGRTMAX",
};
for (let n = 35; n <= 49; n++) SIGNAL_NAMES[n] = `SIGRTMIN+${n - 34}`;
for (let n = 50; n <= 63; n++) SIGNAL_NAMES[n] = `SIGRTMAX-${64 - n}`;

/** Signals whose default action may leave a core file. */
const CORE_DUMP_SIGNALS = new Set([3, 4, 6, 7, 8, 11]);

export function interpretExitCode(exitCode?: number): ExitCodeInfo {
  if (exitCode === undefined) return { exitCode };
  // 128 itself is an ordinary status (bash uses it for "invalid argument to exit").
  if (exitCode <= 128) return { exitCode };
  const signal = exitCode - 128;
  return {
    exitCode,
    signal,
    signalName: SIGNAL_NAMES[signal] ?? `Unknown Signal (${signal})`,
    coreDumpPossible: CORE_DUMP_SIGNALS.has(signal),
  };
}

/** The signal name for a status, or undefined when the status is not a known signal death. */
export function signalNameForExit(exitCode: number | null | undefined): string | undefined {
  if (exitCode === null || exitCode === undefined || exitCode <= 128) return undefined;
  return SIGNAL_NAMES[exitCode - 128];
}

/** The status bash would report for a process killed by `signal` (e.g. "SIGKILL" or 9 → 137). */
export function exitCodeForSignal(signal: string | number): number | undefined {
  if (typeof signal === "number") return 128 + signal;
  for (const [n, name] of Object.entries(SIGNAL_NAMES)) if (name === signal) return 128 + Number(n);
  return undefined;
}
