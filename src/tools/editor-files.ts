// Files as the user's editor holds them, when Synapse runs inside one (`synapse acp` with a client
// offering fs/read_text_file and fs/write_text_file): Read sees unsaved buffers and Write/Edit land
// in the editor's undo history. The permission gate has judged the call before any of this runs,
// and a write still never goes through a symbolic link, as the tools' own writes do not.

import { lstat, readlink } from "node:fs/promises";
import { requireRegular, type WriteJudge, writeRegularFile } from "./files.ts";
import { ToolError, type ToolServices } from "./types.ts";

export type { EditorFiles } from "./types.ts";

/** The file's text as the editor has it, else `fromDisk()`. */
export async function readTextThrough(
  services: ToolServices,
  path: string,
  fromDisk: () => Promise<string>,
): Promise<string> {
  const read = services.editorFiles?.read;
  return read ? read(path) : fromDisk();
}

/**
 * Writes through the editor when there is one, else straight to disk (links never followed); the
 * session's checkpoints (`/rewind`) save the file before and note what the write left.
 */
export async function writeTextThrough(
  services: ToolServices,
  path: string,
  text: string,
  verb = "write",
  judge?: WriteJudge,
): Promise<void> {
  await services.checkpoints?.beforeWrite(path);
  const write = services.editorFiles?.write;
  if (!write) await writeRegularFile(path, text, verb, judge);
  else await writeThroughEditor(write, path, text, verb);
  await services.checkpoints?.afterWrite(path, text);
}

async function writeThroughEditor(
  write: (path: string, text: string) => Promise<void>,
  path: string,
  text: string,
  verb: string,
): Promise<void> {
  // The editor opens the path as given and would follow a link; O_NOFOLLOW refuses one on disk.
  const info = await lstat(path).catch(() => null);
  if (info?.isSymbolicLink()) {
    const target = await readlink(path).catch(() => "?");
    throw new ToolError(
      `Cannot ${verb} ${path}: it is a symbolic link (to ${target}); links are not followed, name the file itself`,
    );
  }
  if (info) requireRegular(verb, path, info);
  await write(path, text);
}
