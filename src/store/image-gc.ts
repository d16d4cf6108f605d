// Finding a session's images that no archived message refers to any more, and removing them.
// References are collected from the raw JSONL lines: an image a damaged line still names is kept,
// because keeping one image too many costs bytes and removing one too many loses it.

import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { storeError } from "./errors.ts";
import { itemAt } from "../text/checked-index.ts";

export const IMAGES_FOLDER = "images";
const REFERENCE = /"sha256":"([0-9a-f]{64})"/g;
const IMAGE_FILE = /^([0-9a-f]{64})\.[a-z0-9]+$/;

/** Adds every image hash that the line names to `into`. */
export function collectImageReferences(line: string, into: Set<string>): void {
  // Most lines have no image: one substring search spares them the regular expression.
  if (!line.includes('"sha256":"')) return;
  for (const m of line.matchAll(REFERENCE)) into.add(itemAt(m, 1));
}

export interface ImageSweep {
  /** Image files no message refers to (removed unless it was a dry run). */
  removed: number;
  bytes: number;
  /** Bytes of the images that stay. */
  keptBytes: number;
}

/** Removes (or, with `dryRun`, only counts) the images in `dir/images` that `referenced` does not name. */
export async function sweepImages(dir: string, referenced: ReadonlySet<string>, dryRun: boolean): Promise<ImageSweep> {
  const folder = join(dir, IMAGES_FOLDER);
  const names = await readdir(folder).catch(() => [] as string[]);
  const sweep: ImageSweep = { removed: 0, bytes: 0, keptBytes: 0 };
  for (const name of names) {
    const m = IMAGE_FILE.exec(name);
    const path = join(folder, name);
    const size = await stat(path).then(
      (s) => (s.isFile() ? s.size : undefined),
      () => undefined,
    );
    if (size === undefined) continue;
    if (!m || referenced.has(itemAt(m, 1))) {
      sweep.keptBytes += size;
      continue;
    }
    if (!dryRun) {
      try {
        await unlink(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw storeError("remove image", path, err);
      }
    }
    sweep.removed++;
    sweep.bytes += size;
  }
  return sweep;
}
