// The store's own failure: the disk said no (full, read-only, gone). One line, exit 1; whatever
// was not written stays queued in memory so the next flush can retry it.

import { EXIT, SynapseError } from "../protocol/errors.ts";

export class StoreError extends SynapseError {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message, EXIT.failed);
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTDIR: "not a directory",
  ENOENT: "no such file or directory",
  EISDIR: "is a directory",
  EIO: "input/output error",
};

/** Wraps a file-system error as a one-line StoreError naming what was being done to which path. */
export function storeError(action: string, path: string, err: unknown): StoreError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const reason = (code && REASONS[code]) ?? (err instanceof Error ? err.message : String(err));
  return new StoreError(`cannot ${action} ${path}: ${reason}${code ? ` (${code})` : ""}`, code);
}
