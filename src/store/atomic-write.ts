// Replacing a file so that a crash leaves the old content or the new, never a torn mix: write a
// private temp file (`<name>.<pid>.tmp`, which removeStaleTemps clears after a crash), fsync, rename.
// Without `durable` the fsync is left out: the file is whole or absent after a crash of the process
// (the page cache outlives it), and a durable write is due soon after (message-store.ts).

import { open, rename, unlink } from "node:fs/promises";

/** Writes `data` to `target` atomically, with `mode` for a new file. Throws the file system's error. */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  mode = 0o600,
  durable = true,
): Promise<void> {
  const temp = `${target}.${process.pid}.tmp`;
  try {
    const handle = await open(temp, "w", mode);
    try {
      await handle.writeFile(data);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}
