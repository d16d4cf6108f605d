// A failed write to stdout (`> /dev/full`, a disk gone read-only, an I/O error) in plain words:
// `synapse: cannot write the output: no space left on device`, exit 1. Kept free of heavy imports:
// the `--help` / `--version` path uses it too.

import { EXIT, SynapseError } from "../../protocol/errors.ts";

const PLAIN: Record<string, string> = {
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "the file is too large",
  EIO: "input/output error",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EBADF: "stdout is not open for writing",
  ECONNRESET: "the reader closed the connection",
};

/** `cannot write the output: <why>`, the why in plain words (the system's own, without its code). */
export function outputFailureMessage(err: unknown): string {
  const e = err as NodeJS.ErrnoException | undefined;
  const known = e?.code ? PLAIN[e.code] : undefined;
  const raw = e instanceof Error ? e.message : String(err);
  // Node and Bun word them "ENOSPC: no space left on device, write".
  const why = known ?? /^[A-Z0-9]+: (.+?)(?:, \w+)?$/.exec(raw)?.[1] ?? raw;
  return `cannot write the output: ${why}`;
}

/** Whether a write failed only because the reader went away (`| head`): a quiet exit 0. */
export function readerWentAway(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === "EPIPE";
}

/** The error main reports for a failed write to stdout: one line, exit 1. */
export function outputFailure(err: unknown): SynapseError {
  return new SynapseError(outputFailureMessage(err), EXIT.failed);
}
