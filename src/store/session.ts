// Opening a session's store: a new one, a named one (`--resume <id>`), or the latest for this
// directory (`--continue`). Takes the session's lock and refills the window from the archive tail.

import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { StoreConfig } from "../config/config.ts";
import { UsageError } from "../protocol/errors.ts";
import { Archive } from "./archive.ts";
import { storeError } from "./errors.ts";
import { acquireLock } from "./lock.ts";
import { readMeta, removeStaleTemps } from "./meta.ts";
import { MessageStore } from "./message-store.ts";
import { ensurePrivateDir, isSessionId, newSessionId, sessionsRoot } from "./paths.ts";
import { listSessions } from "./sessions-list.ts";
import type { SessionMeta } from "./types.ts";

export type ResumeTarget = { id: string } | { latest: true };

export interface OpenSessionOptions {
  /** SYNAPSE_HOME; sessions live in `<home>/sessions/<id>/`. */
  home: string;
  cwd: string;
  model: string;
  config: StoreConfig;
  resume?: ResumeTarget;
  /** Damaged archive lines, failed background writes: one line each, never thrown. */
  onWarning: (message: string) => void;
}

export interface OpenedSession {
  store: MessageStore;
  resumed: boolean;
}

export async function openSession(options: OpenSessionOptions): Promise<OpenedSession> {
  const root = sessionsRoot(options.home);
  await ensurePrivateDir(root);
  if (options.resume) return { store: await resume(root, options, options.resume), resumed: true };
  return { store: await create(root, options), resumed: false };
}

async function create(root: string, options: OpenSessionOptions): Promise<MessageStore> {
  let id = "";
  let dir = "";
  for (let attempt = 0; ; attempt++) {
    id = newSessionId();
    dir = join(root, id);
    try {
      await mkdir(dir, { mode: 0o700 });
      break;
    } catch (err) {
      // Same second, same random suffix: draw again.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 20) throw storeError("create session folder", dir, err);
    }
  }
  let lock;
  try {
    lock = acquireLock(dir, id);
    const now = Date.now();
    const meta: SessionMeta = { id, title: "", cwd: options.cwd, model: options.model, created: now, updated: now, messages: 0, bytes: 0 };
    const archive = await Archive.open({ dir, rotateBytes: options.config.rotateBytes, onWarning: options.onWarning });
    return new MessageStore({
      dir,
      config: options.config,
      meta,
      metaOnDisk: false,
      metaDirty: false,
      archive,
      lock,
      initial: [],
      onWarning: options.onWarning,
    });
  } catch (err) {
    lock?.release();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}

async function resume(root: string, options: OpenSessionOptions, target: ResumeTarget): Promise<MessageStore> {
  const id = "id" in target ? await resolveId(root, target.id) : await latestFor(options.home, options.cwd);
  const dir = join(root, id);
  const found = await readMeta(dir);
  if (!found) throw new UsageError(`no session ${id} in ${root}`);
  const meta: SessionMeta = { ...found, id };
  const lock = acquireLock(dir, id);
  try {
    await removeStaleTemps(dir);
    const archive = await Archive.open({ dir, rotateBytes: options.config.rotateBytes, onWarning: options.onWarning });
    let metaDirty = false;
    // meta.json is written after each batch: if they disagree, the process died in between.
    if (archive.bytes !== meta.bytes) {
      meta.messages = await archive.count();
      meta.bytes = archive.bytes;
      metaDirty = true;
    }
    if (options.model && options.model !== meta.model) {
      meta.model = options.model;
      metaDirty = true;
    }
    const initial = await archive.tail(options.config.maxMessages, options.config.maxBytes);
    return new MessageStore({
      dir,
      config: options.config,
      meta,
      metaOnDisk: true,
      metaDirty,
      archive,
      lock,
      initial,
      onWarning: options.onWarning,
    });
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** An exact id, or a prefix that names exactly one session. */
async function resolveId(root: string, id: string): Promise<string> {
  if (!isSessionId(id)) throw new UsageError(`not a session id: "${id}"`);
  const names = await readdir(root).catch(() => [] as string[]);
  if (names.includes(id)) return id;
  const matches = names.filter((n) => n.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new UsageError(`session id "${id}" is ambiguous: ${matches.slice(0, 5).join(", ")}`);
  throw new UsageError(`no session ${id} in ${root}`);
}

async function latestFor(home: string, cwd: string): Promise<string> {
  const latest = (await listSessions(home)).find((s) => s.cwd === cwd);
  if (!latest) throw new UsageError(`no previous session for ${cwd}`);
  return latest.id;
}
