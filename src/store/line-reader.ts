// Streams a file's lines in fixed-size chunks, so a long archive is never held in memory whole.
// Each line comes with its 1-based number and whether a newline ended it (an unterminated last
// line is what a crash mid-write leaves behind).

import { open } from "node:fs/promises";

export interface Line {
  text: string;
  no: number;
  terminated: boolean;
}

const CHUNK = 64 * 1024;
const NL = 0x0a;

/** Yields the lines of `path` up to byte `end` (default: its size when reading starts). */
export async function* readLines(path: string, end?: number): AsyncGenerator<Line> {
  const handle = await open(path, "r");
  try {
    const limit = end ?? (await handle.stat()).size;
    const decoder = new TextDecoder("utf-8");
    const chunk = Buffer.allocUnsafe(CHUNK);
    // Bytes of a line that started in an earlier chunk and has not ended yet.
    let pending: Buffer[] = [];
    let position = 0;
    let no = 0;
    while (position < limit) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, limit - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let start = 0;
      for (let nl = chunk.indexOf(NL, 0); nl !== -1 && nl < bytesRead; nl = chunk.indexOf(NL, start)) {
        const piece = chunk.subarray(start, nl);
        const bytes = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        start = nl + 1;
        no++;
        yield { text: decoder.decode(bytes), no, terminated: true };
      }
      // The chunk buffer is reused, so the unfinished tail must be copied out.
      if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start, bytesRead)));
    }
    if (pending.length > 0) {
      no++;
      yield { text: decoder.decode(Buffer.concat(pending)), no, terminated: false };
    }
  } finally {
    await handle.close();
  }
}
