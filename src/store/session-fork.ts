// `--fork-session` with `--resume`/`--continue` (Claude Code's flag): the run goes on in a new
// session folder holding a copy of the old one's history (archive, meta, images, file
// checkpoints), so the old session is only read. The copy is taken under the old session's lock,
// so no writer changes it half-way, and the new folder is locked while it fills, so no sweep or
// other run takes it for litter.

import { cp, mkdir, readdir, rm, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import { storeError } from "./errors.ts";
import { isAbandoned } from "./abandoned-sessions.ts";
import { LOCK_FILE, acquireLock, lockHolder } from "./lock.ts";
import { META_FILE, readMeta, writeMeta } from "./meta.ts";
import { newSessionId } from "./paths.ts";

/** What is never copied: the old session's lock (and its take-over guard) and half-written temp files. */
export function isCopiedFile(name: string): boolean {
  return name !== LOCK_FILE && name !== `${LOCK_FILE}.guard` && !/\.\d+\.tmp$/.test(name);
}

/**
 * Creates `<root>/<id>` (a fresh id unless one is given) holding a copy of session `from`; returns
 * the new id. An `id` already in use is a usage error.
 */
export async function forkSession(root: string, from: string, id?: string): Promise<string> {
  const target = await newFolder(root, id);
  const source = join(root, from);
  const sourceLock = acquireLock(source, from);
  const targetLock = acquireLock(target.dir, target.id);
  try {
    await cp(source, target.dir, {
      recursive: true,
      force: false,
      errorOnExist: false,
      filter: (path) => path === source || isCopiedFile(basename(path)),
    });
    const found = await readMeta(target.dir);
    // Without a usable meta.json the resume rebuilds one from the copied archive.
    if (found.state === "ok") {
      const now = Date.now();
      await writeMeta(target.dir, { ...found.meta, id: target.id, created: now, updated: now });
    }
  } catch (err) {
    targetLock.release();
    await rm(target.dir, { recursive: true, force: true }).catch(() => undefined);
    throw storeError("copy session", source, err);
  } finally {
    sourceLock.release();
  }
  targetLock.release();
  return target.id;
}

/** A new, empty session folder: named `id`, or by a fresh id drawn until one is free. */
export async function newFolder(root: string, id?: string): Promise<{ id: string; dir: string }> {
  for (let attempt = 0; ; attempt++) {
    const name = id ?? newSessionId();
    const dir = join(root, name);
    try {
      await mkdir(dir, { mode: 0o700 });
      return { id: name, dir };
    } catch (err) {
      const exists = (err as NodeJS.ErrnoException).code === "EEXIST";
      if (exists && id !== undefined) {
        if (attempt === 0 && (await freedLitter(dir))) continue;
        throw new UsageError(`session id ${id} is already in use`);
      }
      // Same second, same random suffix: draw again.
      if (!exists || attempt > 20) throw storeError("create session folder", dir, err);
    }
  }
}

/**
 * A folder a run with this id left when it was killed before its first message (its dead lock,
 * temp files) was never a session: it is removed and the id is free. True when it was.
 */
async function freedLitter(dir: string): Promise<boolean> {
  try {
    const names = await readdir(dir);
    if (names.includes(META_FILE)) return false;
    const lock = !names.includes(LOCK_FILE) ? "absent" : lockHolder(dir) === undefined ? "stale" : "held";
    if (!isAbandoned(names, lock, Date.now() - (await stat(dir)).mtimeMs)) return false;
    await rm(dir, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}
