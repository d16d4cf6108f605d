// Reads a file a repository may have planted: a FIFO would block the whole process (a synchronous
// read holds the event loop, so not even SIGINT or SIGTERM gets through), and /dev/zero or a huge
// file would never end. Opened without blocking, checked to be a regular file, read up to a bound.

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** A file that is there but is no regular file, or is larger than the reader takes. */
export class NotReadableFile extends Error {
  constructor(
    message: string,
    readonly code: "EISDIR" | "ENOTREGULAR" | "ETOOBIG",
  ) {
    super(message);
  }
}

/**
 * The text of the regular file at `path`. Larger than `maxBytes`: with `cut`, its first `maxBytes`
 * bytes (a character cut there is replaced), else a NotReadableFile. Errors of `open` (ENOENT,
 * EACCES) are thrown as they are.
 */
export function readRegularFile(path: string, maxBytes: number, opts: { cut?: boolean } = {}): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw new NotReadableFile("it is a directory", "EISDIR");
    if (!info.isFile()) throw new NotReadableFile("not a regular file", "ENOTREGULAR");
    if (info.size > maxBytes && !opts.cut) throw new NotReadableFile(`larger than ${maxBytes} bytes`, "ETOOBIG");
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return buffer.subarray(0, filled).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
