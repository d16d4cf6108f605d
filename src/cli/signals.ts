// Catches SIGINT, SIGTERM and SIGHUP from the moment a run starts (stdin may still be arriving)
// and turns each into its exit code; what a signal does is up to the phase the run is in.

import { EXIT } from "../protocol/errors.ts";

const CODES = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated, SIGHUP: EXIT.hangup } as const;
type Trapped = keyof typeof CODES;

export interface SignalTrap {
  /** Resolves with the exit code of the first signal received. */
  readonly first: Promise<number>;
  /** The first signal's exit code, if one came. */
  code(): number | undefined;
  /** From now on, each signal also calls `handler` (count: how many signals so far). */
  onSignal(handler: (code: number, signal: Trapped, count: number) => void): void;
}

export function trapSignals(): SignalTrap {
  let firstCode: number | undefined;
  let count = 0;
  let handler: ((code: number, signal: Trapped, count: number) => void) | undefined;
  let resolveFirst!: (code: number) => void;
  const first = new Promise<number>((resolve) => (resolveFirst = resolve));
  for (const signal of Object.keys(CODES) as Trapped[]) {
    process.on(signal, () => {
      count++;
      firstCode ??= CODES[signal];
      resolveFirst(firstCode);
      handler?.(CODES[signal], signal, count);
    });
  }
  return {
    first,
    code: () => firstCode,
    onSignal(h) {
      handler = h;
    },
  };
}
