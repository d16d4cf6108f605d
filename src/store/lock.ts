// One writer per session: a `lock` file created with O_EXCL holds the writer's pid. A second
// writer is refused with a usage error naming that pid; a lock left by a dead process is taken over.

import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import { storeError } from "./errors.ts";
import { randomHex } from "./paths.ts";

export const LOCK_FILE = "lock";

interface LockInfo {
  pid: number;
  host: string;
  /** Kernel start time of the process, to tell a reused pid from the original owner. */
  started?: string;
  token: string;
}

// A lock file that is still empty belongs to a writer between create and write, unless it is old.
const EMPTY_LOCK_GRACE_MS = 5_000;
// A takeover guard older than this was left by a process that died during a takeover.
const GUARD_STALE_MS = 10_000;

export class SessionLock {
  private held = true;

  constructor(
    readonly path: string,
    private readonly token: string,
  ) {}

  /** Removes the lock if it is still ours; safe to call twice and from an exit handler. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    if (readLock(this.path)?.token === this.token) unlinkSafe(this.path);
  }
}

/** Takes the session's lock or throws UsageError naming the process that holds it. */
export function acquireLock(dir: string, sessionId: string): SessionLock {
  const path = join(dir, LOCK_FILE);
  const token = randomHex(8);
  const info: LockInfo = { pid: process.pid, host: hostname(), started: processStart(process.pid), token };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      try {
        writeSync(fd, `${JSON.stringify(info)}\n`);
      } finally {
        closeSync(fd);
      }
      return new SessionLock(path, token);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw storeError("create session lock", path, err);
    }
    const owner = readLock(path);
    if (owner === undefined) continue; // released between our create and our read: try again
    if (isLive(owner, path)) {
      if (owner === null)
        throw new UsageError(`session ${sessionId} is being opened by another process; lock file ${path}`);
      const elsewhere = owner.host !== "" && owner.host !== hostname();
      const who =
        owner.pid === process.pid
          ? `this process (pid ${owner.pid})`
          : `pid ${owner.pid}${elsewhere ? ` on host ${owner.host}` : ""}`;
      throw new UsageError(`session ${sessionId} is in use by ${who}; if that process is gone, remove ${path}`);
    }
    takeOver(path, owner, sessionId);
  }
  throw new UsageError(`session ${sessionId} is in use: could not take its lock ${path}`);
}

// Two processes may find the same stale lock: a guard file (also O_EXCL) lets one remove it, and
// the lock is re-read under the guard so a fresh lock taken meanwhile is never deleted.
function takeOver(path: string, stale: LockInfo | null, sessionId: string): void {
  const guard = `${path}.takeover`;
  try {
    closeSync(openSync(guard, "wx", 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw storeError("take over session lock", guard, err);
    if (ageMs(guard) > GUARD_STALE_MS) unlinkSafe(guard);
    else throw new UsageError(`session ${sessionId} is being taken over by another process; lock file ${path}`);
    return;
  }
  try {
    const now = readLock(path);
    if (now !== undefined && sameLock(now, stale)) unlinkSafe(path);
  } finally {
    unlinkSafe(guard);
  }
}

/**
 * Who holds the session's lock, when a live process does: "pid N" (and host), or "a process being
 * opened" for a lock still empty. Only looks; a stale lock counts as free.
 */
export function lockHolder(dir: string): string | undefined {
  const path = join(dir, LOCK_FILE);
  const owner = readLock(path);
  if (owner === undefined || !isLive(owner, path)) return undefined;
  if (owner === null) return "a process that is opening it";
  const elsewhere = owner.host !== "" && owner.host !== hostname();
  return `pid ${owner.pid}${elsewhere ? ` on host ${owner.host}` : ""}`;
}

/** The lock's content; null when it exists but is empty or unreadable, undefined when absent. */
function readLock(path: string): LockInfo | null | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? undefined : null;
  }
  // A hand-written lock holding just a pid still counts.
  if (/^\s*\d+\s*$/.test(raw)) return { pid: Number(raw.trim()), host: "", token: "" };
  try {
    const v = JSON.parse(raw) as Partial<LockInfo>;
    if (typeof v.pid !== "number") return null;
    return { pid: v.pid, host: String(v.host ?? ""), started: v.started, token: String(v.token ?? "") };
  } catch {
    return null;
  }
}

function sameLock(a: LockInfo | null, b: LockInfo | null): boolean {
  if (a === null || b === null) return a === b;
  return a.pid === b.pid && a.token === b.token;
}

function isLive(owner: LockInfo | null, path: string): boolean {
  if (owner === null) return ageMs(path) < EMPTY_LOCK_GRACE_MS;
  // A process on another machine (shared home) cannot be probed: respect its lock.
  if (owner.host !== "" && owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const started = processStart(owner.pid);
  return !(owner.started && started && owner.started !== started);
}

/** Linux: field 22 of /proc/<pid>/stat (start time in clock ticks); undefined elsewhere. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function unlinkSafe(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: someone else finished the same cleanup.
  }
}
