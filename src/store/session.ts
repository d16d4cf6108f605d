// Opening a session's store: a new one, a named one (`--resume <id>`), or the latest for this
// directory (`--continue`). Takes the session's lock and refills the window from the archive tail.

import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { StoreConfig } from "../config/config.ts";
import { UsageError } from "../protocol/errors.ts";
import { Archive } from "./archive.ts";
import { acquireLock, type SessionLock } from "./lock.ts";
import { readMeta, removeStaleTemps, writeMeta } from "./meta.ts";
import { hasArchive, rebuiltMeta, rebuildWarning, summarizeArchive } from "./meta-rebuild.ts";
import { MessageStore } from "./message-store.ts";
import { newStore } from "./new-store.ts";
import { ensurePrivateDir, isSessionId, sessionsRoot } from "./paths.ts";
import { forkSession, newFolder } from "./session-fork.ts";
import { listSessions } from "./sessions-list.ts";
import type { SessionMeta } from "./types.ts";
import { itemAt } from "../text/checked-index.ts";

export type ResumeTarget = { id: string } | { latest: true };

export interface OpenSessionOptions {
  /** SYNAPSE_HOME; sessions live in `<home>/sessions/<id>/`. */
  home: string;
  cwd: string;
  model: string;
  /** On resume, leave the model the session recorded in its meta (the caller switches to it). */
  keepRecordedModel?: boolean;
  config: StoreConfig;
  resume?: ResumeTarget;
  /** The new session's id (`--session-id`): a usage error when a session has it already. */
  id?: string;
  /** `--fork-session`: the resumed session's history goes on in a new session; the old one is only read. */
  fork?: boolean;
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
  if (options.resume && options.fork) {
    const from = await resolveTarget(root, options, options.resume);
    const id = await forkSession(root, from, options.id);
    return { store: await resume(root, options, { id }), resumed: true };
  }
  if (options.resume) return { store: await resume(root, options, options.resume), resumed: true };
  return { store: await create(root, options), resumed: false };
}

async function create(root: string, options: OpenSessionOptions): Promise<MessageStore> {
  const { id, dir } = await newFolder(root, options.id);
  let lock: SessionLock | undefined;
  try {
    lock = acquireLock(dir, id);
    const meta = { id, title: "", cwd: options.cwd, model: options.model };
    return await newStore({
      dir,
      lock,
      meta,
      config: options.config,
      writeMetaEarly: false,
      onWarning: options.onWarning,
    });
  } catch (err) {
    lock?.release();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}

async function resume(root: string, options: OpenSessionOptions, target: ResumeTarget): Promise<MessageStore> {
  const id = await resolveTarget(root, options, target);
  const dir = join(root, id);
  const found = await readMeta(dir);
  if (found.state === "newer")
    throw new UsageError(`session ${id} was written by a newer synapse (format ${found.format})`);
  // Without a usable meta.json the archive is the session; only a folder with neither is no session.
  if (found.state === "unreadable" && !(await hasArchive(dir))) throw new UsageError(`no session ${id} in ${root}`);
  const lock = acquireLock(dir, id);
  try {
    await removeStaleTemps(dir);
    let meta: SessionMeta;
    if (found.state === "ok") {
      meta = { ...found.meta, id };
    } else {
      // Rebuilt under the lock, so no writer changes the archive while it is summarized. cwd and
      // model are stored nowhere else: the session now belongs to this directory and model.
      const summary = await summarizeArchive(dir);
      if (!summary) throw new UsageError(`no session ${id} in ${root}`);
      meta = rebuiltMeta(id, summary, options.cwd, options.model);
      options.onWarning(rebuildWarning(dir));
      // Written now, not with the first new message, so the next run finds a valid file even if
      // this one appends nothing.
      await writeMeta(dir, meta);
    }
    const archive = await Archive.open({ dir, rotateBytes: options.config.rotateBytes, onWarning: options.onWarning });
    let metaDirty = false;
    // meta.json follows the archive within a second (message-store.ts): if they disagree, the
    // process died in between, and the lines past meta.json's figures are counted.
    if (archive.bytes !== meta.bytes) {
      meta.messages = await archive.countAfter(meta);
      meta.bytes = archive.bytes;
      metaDirty = true;
    }
    if (options.model && options.model !== meta.model && !(options.keepRecordedModel && meta.model)) {
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

function resolveTarget(root: string, options: OpenSessionOptions, target: ResumeTarget): Promise<string> {
  return "id" in target ? resolveId(root, target.id) : latestFor(options.home, options.cwd, options.onWarning);
}

/** An exact id, or a prefix that names exactly one session. */
async function resolveId(root: string, id: string): Promise<string> {
  if (!isSessionId(id)) throw new UsageError(`not a session id: "${id}"`);
  const names = await readdir(root).catch(() => [] as string[]);
  if (names.includes(id)) return id;
  const matches = names.filter((n) => n.startsWith(id));
  if (matches.length === 1) return itemAt(matches, 0);
  if (matches.length > 1) throw new UsageError(`session id "${id}" is ambiguous: ${matches.slice(0, 5).join(", ")}`);
  throw new UsageError(`no session ${id} in ${root}`);
}

/**
 * The newest session whose meta.json names this directory. Sessions with no readable meta.json have
 * no known directory, so they are never picked; the error or a warning says they exist.
 */
async function latestFor(home: string, cwd: string, onWarning: (message: string) => void): Promise<string> {
  const sessions = await listSessions(home);
  const unknown = sessions.filter((s) => s.state === "rebuilt");
  const latest = sessions.find((s) => s.state !== "rebuilt" && s.cwd === cwd);
  if (!latest) throw new UsageError(`no previous session for ${cwd}${unknownNote(unknown.map((s) => s.id))}`);
  // Only those newer than the pick could have been the session meant.
  const newer = unknown.filter((s) => s.updated > latest.updated).map((s) => s.id);
  if (newer.length > 0) onWarning(`continuing ${latest.id}${unknownNote(newer, "newer ")}`);
  return latest.id;
}

function unknownNote(ids: string[], which = ""): string {
  if (ids.length === 0) return "";
  const shown = ids.slice(0, 3).join(", ") + (ids.length > 3 ? ", ..." : "");
  const count = ids.length === 1 ? `1 ${which}session has` : `${ids.length} ${which}sessions have`;
  return `; ${count} no readable metadata (${shown}), resume ${ids.length === 1 ? "it" : "them"} with -r <id>`;
}
