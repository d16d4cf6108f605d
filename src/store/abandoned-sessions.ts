// Session folders a run killed before its first message left behind (`kill -9` in its first
// moments): nothing in them but the dead run's lock and half-written temp files. They were never
// sessions (resume finds none there), so they are removed beside the next run (session-runtime.ts
// starts the sweep when its session opens and awaits it at close) and by `synapse compact`, never
// a folder a live process holds or may be about to lock.

import { access, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { LOCK_FILE, lockHolder } from "./lock.ts";
import { isSessionId, sessionsRoot } from "./paths.ts";

/** What such a folder may hold: the lock (and its take-over guard) and temp files of atomic writes. */
const LITTER = new RegExp(`^(${LOCK_FILE}(\\.guard)?|[^/]+\\.\\d+\\.tmp)$`);

/**
 * A folder with no lock at all may belong to a run between creating it and taking its lock: only
 * one older than this is litter.
 */
export const UNLOCKED_LITTER_AGE_MS = 10 * 60_000;

/** Pure: whether a folder holding `names` is litter, given whether its lock is stale and its age. */
export function isAbandoned(names: readonly string[], lock: "absent" | "stale" | "held", ageMs: number): boolean {
  if (lock === "held") return false;
  if (!names.every((n) => LITTER.test(n))) return false;
  return lock === "stale" || ageMs > UNLOCKED_LITTER_AGE_MS;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Removes every abandoned session folder but `except`; returns the ids removed. Never throws. */
export async function removeAbandonedSessions(home: string, except?: string, now = Date.now()): Promise<string[]> {
  const root = sessionsRoot(home);
  const removed: string[] = [];
  const ids = await readdir(root).catch(() => [] as string[]);
  for (const id of ids) {
    if (id === except || !isSessionId(id)) continue;
    const dir = join(root, id);
    try {
      // One look per real session, asynchronous (a run goes on beside it): those have meta.json.
      if (await exists(join(dir, "meta.json"))) continue;
      const names = await readdir(dir);
      const lock = !names.includes(LOCK_FILE) ? "absent" : lockHolder(dir) === undefined ? "stale" : "held";
      const age = now - (await stat(dir)).mtimeMs;
      if (!isAbandoned(names, lock, age)) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(id);
    } catch {
      // Gone meanwhile, or not ours to read: left alone.
    }
  }
  return removed;
}
