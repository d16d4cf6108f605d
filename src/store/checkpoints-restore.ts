// Putting files back to before a prompt (`/rewind`, code): each file the agent wrote since goes
// back to its snapshot, and a file it created is removed. Nothing is reached through a link: a
// link anywhere on a recorded path (planted by a command since) leaves that file alone, and the
// file itself is opened with O_NOFOLLOW. A file changed outside synapse since the agent's last
// write is named, and its current content kept as a snapshot before it is replaced.

import { constants } from "node:fs";
import { lstat, mkdir, open, unlink } from "node:fs/promises";
import { dirname, parse, sep } from "node:path";
import { sha256Hex } from "../runtime/portable.ts";
import { type CheckpointStore, readNoFollow } from "./checkpoints.ts";
import { type FileRestore, type IndexEntry, restorePlan } from "./checkpoints-index.ts";

export type RestoreStatus = "restored" | "removed" | "unchanged" | "left alone";

export interface RestoredFile {
  path: string;
  status: RestoreStatus;
  /** Why it was left alone. */
  why?: string;
  /** It was changed outside synapse since the agent's last write (its content then is kept). */
  changedOutside?: boolean;
  /** The snapshot of what a restore replaced, when it was changed outside synapse. */
  keptAs?: string;
}

/** Restores the files to before prompt `turn`; undefined when the index has no such prompt. */
export async function restoreCode(store: CheckpointStore, turn: string): Promise<RestoredFile[] | undefined> {
  await store.settled();
  const plan = restorePlan(await store.entries(), turn);
  if (!plan) return undefined;
  const done: RestoredFile[] = [];
  const record: IndexEntry[] = [];
  for (const file of plan) {
    const outcome = await restoreOne(store, file).catch(
      (err): RestoredFile => ({ path: file.path, status: "left alone", why: (err as Error).message }),
    );
    done.push(outcome);
    if (outcome.keptAs) record.push({ t: "kept", path: file.path, sha: outcome.keptAs });
    if (outcome.status === "restored" || outcome.status === "removed" || outcome.status === "unchanged")
      record.push({ t: "after", path: file.path, sha: file.target });
  }
  // The restored state is synapse's last write now: a later rewind compares against it.
  await store.record(record);
  return done;
}

async function restoreOne(store: CheckpointStore, file: FileRestore): Promise<RestoredFile> {
  const { path } = file;
  if (file.skipped) return { path, status: "left alone", why: `no snapshot was kept (${file.skipped})` };
  const link = await linkOnTheWay(path);
  if (link) return { path, status: "left alone", why: `${link} is a symbolic link now; links are not followed` };
  const now = await readNoFollow(path);
  if (now === "link") return { path, status: "left alone", why: "it is a symbolic link now; links are not followed" };
  if (now === "not a file" || now === "too large")
    return { path, status: "left alone", why: "it is not a regular file now" };
  const current = now === null ? null : await sha256Hex(now.bytes);
  if (current === file.target) return { path, status: "unchanged" };
  const changedOutside = file.lastKnown !== undefined && current !== file.lastKnown;
  const out: RestoredFile = { path, status: file.target === null ? "removed" : "restored" };
  if (changedOutside) out.changedOutside = true;
  // Whatever was changed outside synapse is not lost: its content goes to the checkpoints too, as
  // does a file whose state synapse never learnt (its write failed, or a kill -9 came first).
  if ((changedOutside || file.lastKnown === undefined) && now !== null) out.keptAs = await store.saveBlob(now.bytes);
  if (file.target === null) {
    if (now !== null) await unlink(path);
    return out;
  }
  const bytes = await store.readBlob(file.target);
  await makeFolders(dirname(path));
  await writeNoFollow(path, bytes, file.mode ?? 0o644);
  return out;
}

/** The first existing folder on the way to `path` that is a symbolic link, if any. */
async function linkOnTheWay(path: string): Promise<string | undefined> {
  const { root } = parse(path);
  const parts = dirname(path).slice(root.length).split(sep).filter(Boolean);
  let at = root;
  for (const part of parts) {
    at = at === root ? root + part : at + sep + part;
    const info = await lstat(at).catch(() => undefined);
    if (!info) return undefined;
    if (info.isSymbolicLink()) return at;
    if (!info.isDirectory()) throw new Error(`${at} is not a folder now`);
  }
  return undefined;
}

/** Creates the missing folders one by one, checking each is a real folder (not a link made meanwhile). */
async function makeFolders(dir: string): Promise<void> {
  const { root } = parse(dir);
  let at = root;
  for (const part of dir.slice(root.length).split(sep).filter(Boolean)) {
    at = at === root ? root + part : at + sep + part;
    await mkdir(at, { mode: 0o755 }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "EEXIST") throw err;
    });
    const info = await lstat(at);
    if (!info.isDirectory()) throw new Error(`${at} is not a folder now`);
  }
}

async function writeNoFollow(path: string, bytes: Uint8Array, mode: number): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const handle = await open(path, flags, mode & 0o777);
  try {
    // Truncated only once it is known to be a regular file.
    if (!(await handle.stat()).isFile()) throw new Error("it is not a regular file now");
    await handle.truncate(0);
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
}
