// Replacing one archive segment by its gzip copy so that a crash at any moment leaves it readable:
// copy to a temp file, check it, fsync, rename into place, fsync the folder, and only then remove
// the original. Readers prefer the original while both exist, so no line is ever read twice.

import { createReadStream, createWriteStream } from "node:fs";
import { type FileHandle, open, rename, stat, unlink, utimes } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { Writable } from "node:stream";
import { createGunzip, createGzip } from "node:zlib";
import { compressedName, type Segment } from "./archive.ts";
import { storeError } from "./errors.ts";

const CHUNK = 256 * 1024;
// Measured on JSONL of real source files as tool outputs: level 1 gives 4.2× at ~320 MB/s, level 3
// 6.1× at ~160 MB/s, level 6 (zlib's default) 6.8× at ~80 MB/s. Level 3 keeps most of the saving
// at twice the default's speed, so a run over gigabytes takes seconds, not minutes.
const LEVEL = 3;

export interface Compressed {
  /** Size of the gzip copy now in place. */
  size: number;
  path: string;
}

/** Compresses a plain segment in place of itself; `dir` is the session folder. */
export async function compressSegment(dir: string, segment: Segment): Promise<Compressed> {
  const target = join(dir, compressedName(segment.index));
  // `*.<pid>.tmp`: the name removeStaleTemps clears when a killed run left one behind.
  const temp = `${target}.${process.pid}.tmp`;
  try {
    const original = await stat(segment.path);
    await pipeline(
      createReadStream(segment.path, { highWaterMark: CHUNK }),
      createGzip({ level: LEVEL, chunkSize: CHUNK }),
      createWriteStream(temp, { mode: 0o600, highWaterMark: CHUNK }),
    );
    // The copy must give back every byte before the original may go.
    const restored = await gunzippedSize(temp);
    if (restored !== original.size)
      throw new Error(`compressed copy gives ${restored} bytes instead of ${original.size}`);
    await syncFile(temp);
    // `synapse sessions` and --older-than read a session's age from its newest file.
    await utimes(temp, original.atime, original.mtime);
    await rename(temp, target);
    await syncDir(dir);
    const size = (await stat(target)).size;
    await unlink(segment.path);
    await syncDir(dir);
    return { size, path: target };
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw storeError("compress session archive", segment.path, err);
  }
}

async function gunzippedSize(path: string): Promise<number> {
  let total = 0;
  const count = new Writable({
    write(chunk: Buffer, _enc, done) {
      total += chunk.length;
      done();
    },
  });
  await pipeline(createReadStream(path, { highWaterMark: CHUNK }), createGunzip({ chunkSize: CHUNK }), count);
  return total;
}

export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename or unlink in `dir` survive a power cut (Linux; a no-op where folders cannot be opened). */
export async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, "r");
  } catch {
    return;
  }
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}
