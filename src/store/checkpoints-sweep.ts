// Bounding the checkpoints a session keeps: the index is cut down to its last prompts (replaced
// atomically), then the snapshots it no longer names are removed. A live session does it as it
// grows; `synapse compact` does it for every stored session.

import { readdir, readFile, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.ts";
import { CHECKPOINT_TURNS, indexLine, lastTurns, parseIndex, referencedBlobs } from "./checkpoints-index.ts";
import { storeError } from "./errors.ts";

const BLOB = /^[0-9a-f]{64}$/;
const INDEX = "index.jsonl";

export interface CheckpointSweep {
  /** Snapshots no kept prompt refers to (removed unless it was a dry run). */
  removed: number;
  bytes: number;
}

/** Cuts `folder`'s index to its last `keep` prompts and removes unreferenced snapshots. */
export async function pruneCheckpoints(
  folder: string,
  keep = CHECKPOINT_TURNS,
  dryRun = false,
): Promise<CheckpointSweep> {
  const indexPath = join(folder, INDEX);
  const text = await readFile(indexPath, "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw storeError("read checkpoint index", indexPath, err);
  });
  const sweep: CheckpointSweep = { removed: 0, bytes: 0 };
  if (text === undefined) return sweep;
  const all = parseIndex(text);
  const kept = lastTurns(all, keep);
  // Written before any snapshot goes: a run killed in between leaves an index that names only
  // snapshots still there.
  if (!dryRun && kept.length < all.length) await writeFileAtomic(indexPath, kept.map(indexLine).join(""));
  const referenced = referencedBlobs(kept);
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if (!BLOB.test(name) || referenced.has(name)) continue;
    const path = join(folder, name);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    if (!dryRun) {
      try {
        await unlink(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw storeError("remove checkpoint", path, err);
      }
    }
    sweep.removed++;
    sweep.bytes += info.size;
  }
  return sweep;
}
