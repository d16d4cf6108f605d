// The few error classes the program uses; the top-level handler maps each to one line and an
// exit code (README "Exit codes").

export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;

export class SynapseError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flags, bad input, missing provider configuration: exit 2. */
export class UsageError extends SynapseError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** The model provider failed for good (after retries, or a non-retryable status): exit 1. */
export class ProviderError extends SynapseError {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
  ) {
    super(message, EXIT.failed);
  }
}

/** The user interrupted (SIGINT / ESC): exit 130. */
export class InterruptedError extends SynapseError {
  constructor(message = "interrupted") {
    super(message, EXIT.interrupted);
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
