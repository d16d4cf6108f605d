// How a run of synapse ends, in one place for every mode (headless, the interactive session, the
// TERM=dumb line session, the SDK): SIGINT / SIGTERM / SIGHUP trapped from the moment the run
// starts and turned into their exit codes, a crash reported in one line with the session saved if
// it can be, the session's close run once whoever asks first, and no child left behind.
// The process itself ends only in cli/main.ts (or through forceExit, which does not wait).

import { EXIT, errorMessage } from "../protocol/errors.ts";
import type { ResultSubtype } from "../protocol/events.ts";

export const SIGNAL_CODES = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated, SIGHUP: EXIT.hangup } as const;
export type TrappedSignal = keyof typeof SIGNAL_CODES;

/** One signal received: its exit code, and how many signals came so far (this one included). */
export interface SignalNote {
  signal: TrappedSignal;
  code: number;
  count: number;
}

/** What a run owns that must be saved after a crash and killed on any exit (an Executor is one). */
export interface OwnedSession {
  close(): Promise<void>;
  killNow(): void;
  interruptAll?(): void;
}

export interface CrashPolicy {
  /** An error that is no crash (a reader gone away): the caller dealt with it; true to go on running. */
  benign?(err: unknown): boolean;
  /** Runs first: gives the terminal back, say, so the report is readable. */
  before?(): void;
  /** Says what went wrong; the default is one line on stderr. */
  report?(err: unknown): void;
}

export interface ProcessLifecycle {
  /** Resolves with the exit code of the first signal received. */
  readonly firstSignal: Promise<number>;
  /** The first signal's exit code, if one came. */
  signalCode(): number | undefined;
  /** From now on each signal calls `handler` (replacing the one before). */
  onSignal(handler: (note: SignalNote) => void): void;
  /** How a crash is handled; see CrashPolicy. */
  onCrash(policy: CrashPolicy): void;
  /** The session to save on a crash and to kill, whatever ends the process. */
  own(session: OwnedSession): void;
  /** Ends the process now: children killed (the lock released), nothing saved. */
  forceExit(code: number): never;
}

/** How long a crash waits for the session to save before it ends the process anyway. */
export const CRASH_SAVE_MS = 2000;

/**
 * Starts trapping signals and crashes for this process. Call it once, as early as the run starts
 * (before stdin is read: a Ctrl-C while the prompt is still arriving must not run it).
 */
export function startLifecycle(): ProcessLifecycle {
  let firstCode: number | undefined;
  let count = 0;
  let signalHandler: ((note: SignalNote) => void) | undefined;
  let policy: CrashPolicy = {};
  let session: OwnedSession | undefined;
  let crashing = false;
  let resolveFirst: (code: number) => void = () => {};
  const firstSignal = new Promise<number>((resolve) => {
    resolveFirst = resolve;
  });

  const forceExit = (code: number): never => {
    session?.killNow();
    process.exit(code);
  };
  for (const signal of Object.keys(SIGNAL_CODES) as TrappedSignal[]) {
    process.on(signal, () => {
      count++;
      const code = SIGNAL_CODES[signal];
      firstCode ??= code;
      resolveFirst(firstCode);
      signalHandler?.({ signal, code, count });
    });
  }
  const crash = (err: unknown) => {
    if (policy.benign?.(err)) return;
    // A crash while saving after a crash: nothing more is worth trying.
    if (crashing) forceExit(EXIT.failed);
    crashing = true;
    policy.before?.();
    (policy.report ?? reportCrash)(err);
    void saveThenExit(session, () => forceExit(EXIT.failed));
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
  process.on("exit", () => session?.killNow());

  return {
    firstSignal,
    signalCode: () => firstCode,
    onSignal(handler) {
      signalHandler = handler;
    },
    onCrash(p) {
      policy = p;
    },
    own(s) {
      session = s;
    },
    forceExit,
  };
}

function reportCrash(err: unknown): void {
  process.stderr.write(`synapse: internal error: ${errorMessage(err)}\n`);
}

// What reached the store is written and the lock released; a save that hangs is not waited for.
async function saveThenExit(session: OwnedSession | undefined, exit: () => void): Promise<void> {
  if (session) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CRASH_SAVE_MS);
    });
    try {
      session.interruptAll?.();
      await Promise.race([session.close(), late]);
    } catch {
      // The report is out already; a failed save changes nothing about the exit.
    }
    clearTimeout(timer);
  }
  exit();
}

/** The end of a session, run once whoever asks first (a key, a signal, the end of input). */
export interface EndOnce {
  /** Starts the end with this exit code; later calls do nothing. */
  end(code: number): Promise<void>;
  /** Whether the end has begun. */
  begun(): boolean;
  /** Resolves with the code the end sequence settled on. */
  readonly done: Promise<number>;
}

/** `sequence` gets the requested exit code and returns the final one (a failed save makes it 1). */
export function endOnce(sequence: (code: number) => Promise<number>): EndOnce {
  let started = false;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  return {
    async end(code) {
      if (started) return;
      started = true;
      finish(await sequence(code));
    },
    begun: () => started,
    done,
  };
}

/** A run's exit code from how its result ended. */
export function codeForResult(subtype: ResultSubtype): number {
  if (subtype === "success") return EXIT.ok;
  if (subtype === "interrupted") return EXIT.interrupted;
  return EXIT.failed;
}

/** The exit code after closing: a failed save turns any code into a failure. */
export function codeAfterSave(code: number, closed: { failed: boolean }): number {
  return closed.failed ? EXIT.failed : code;
}
