// Streams a file's lines in fixed-size chunks, so a long archive is never held in memory whole.
// Each line comes with its 1-based number and whether a newline ended it (an unterminated last
// line is what a crash mid-write leaves behind). A `.gz` file (an archive segment compressed by
// `synapse compact`) is decompressed on the fly through node:zlib streams.

import { createReadStream } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

export interface Line {
  text: string;
  no: number;
  terminated: boolean;
}

export const GZIP_SUFFIX = ".gz";
const CHUNK = 64 * 1024;
const NL = 0x0a;

/**
 * Yields the lines of `path` from byte `from` (a line start; numbers count from there) up to byte
 * `end` (default: its size when reading starts). A `.gz` path is read whole and decompressed:
 * `from` and `end` would count compressed bytes, and such a file is never appended to.
 */
export async function* readLines(path: string, end?: number, from = 0): AsyncGenerator<Line> {
  if (path.endsWith(GZIP_SUFFIX)) {
    yield* readGzipLines(path);
    return;
  }
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (err) {
    // A reader without the session lock (listing) may have listed a segment that `synapse compact`
    // then replaced by its compressed copy: the same lines under another name.
    if ((err as NodeJS.ErrnoException).code !== "ENOENT" || !path.endsWith(".jsonl")) throw err;
    yield* readGzipLines(path + GZIP_SUFFIX);
    return;
  }
  try {
    yield* splitLines(fileChunks(handle, end ?? (await handle.stat()).size, from));
  } finally {
    await handle.close();
  }
}

/** The bytes of an open file up to `limit`, in one reused buffer: each view is valid until the next. */
async function* fileChunks(
  handle: import("node:fs/promises").FileHandle,
  limit: number,
  from: number,
): AsyncGenerator<Uint8Array> {
  const chunk = Buffer.allocUnsafe(CHUNK);
  let position = from;
  while (position < limit) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, limit - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    yield chunk.subarray(0, bytesRead);
  }
}

/** The lines of a gzip file, decompressed chunk by chunk; a damaged file throws where it breaks. */
async function* readGzipLines(path: string): AsyncGenerator<Line> {
  // Loaded here, not at the top: node:zlib costs about a millisecond to load in the compiled
  // binary, and every session start reaches this module while few ever read a compressed segment.
  const [{ pipeline }, { createGunzip }] = await Promise.all([import("node:stream"), import("node:zlib")]);
  const file = createReadStream(path, { highWaterMark: CHUNK });
  const gunzip = createGunzip({ chunkSize: CHUNK });
  // pipeline (not pipe) so a read error reaches the consumer instead of hanging it.
  const source = pipeline(file, gunzip, () => undefined);
  try {
    yield* splitLines(source as AsyncIterable<Buffer>);
  } finally {
    file.destroy();
    gunzip.destroy();
  }
}

/**
 * Cuts a byte stream into numbered lines. A chunk may be a reused buffer: a line's bytes are
 * decoded before the next chunk is asked for, and an unfinished tail is copied out.
 */
async function* splitLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Line> {
  const decoder = new TextDecoder("utf-8");
  // Bytes of a line that started in an earlier chunk and has not ended yet.
  let pending: Uint8Array[] = [];
  let no = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(NL, 0); nl !== -1; nl = chunk.indexOf(NL, start)) {
      const piece = chunk.subarray(start, nl);
      const bytes = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      start = nl + 1;
      no++;
      yield { text: decoder.decode(bytes), no, terminated: true };
    }
    if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
  }
  if (pending.length > 0) {
    no++;
    yield { text: decoder.decode(Buffer.concat(pending)), no, terminated: false };
  }
}
