// Reading and writing for the file tools, refusing anything that is not a regular file before it
// can hurt: opening a FIFO waits for a peer that never comes (past SIGTERM, in a thread nothing
// can cancel), and a device may never end or swallow what is written.

import { constants, type Stats } from "node:fs";
import { type FileHandle, mkdir, open, readlink, stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { openedFileProblem } from "../policy/opened-file.ts";
import { ToolError, type ToolContext } from "./types.ts";

/** What a file that is not regular is, for messages ("a FIFO (named pipe)", "a socket", ...). */
export function kindOf(info: Stats): string {
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "a special file";
}

export function notRegularMessage(verb: string, path: string, info: Stats): string {
  return `Cannot ${verb} ${path}: it is ${kindOf(info)}, not a regular file`;
}

/** Throws the ToolError for an existing path that is not a regular file. */
export function requireRegular(verb: string, path: string, info: Stats): void {
  if (!info.isFile()) throw new ToolError(notRegularMessage(verb, path, info));
}

/**
 * Opens with O_NONBLOCK, which makes opening a FIFO return at once (or fail with ENXIO when no
 * one reads it) instead of waiting; the open file is checked before it is used. On a regular
 * file the flag changes nothing.
 */
async function openRegular(path: string, flags: number, verb: string) {
  let handle: FileHandle;
  try {
    handle = await open(path, flags | constants.O_NONBLOCK, 0o666);
  } catch (err) {
    const info = (err as NodeJS.ErrnoException).code === "ENXIO" ? await stat(path).catch(() => null) : null;
    if (info) requireRegular(verb, path, info);
    throw err;
  }
  const info = await handle.stat().catch(() => null);
  if (!info?.isFile()) {
    await handle.close();
    if (info) requireRegular(verb, path, info);
    throw new ToolError(`Cannot ${verb} ${path}: it is not a regular file`);
  }
  return handle;
}

/**
 * Opens `path` to read it and names the open file itself (`/proc/self/fd/N`) to read it through,
 * so a link swapped afterwards cannot change what is read. When the policy allowed the call by
 * itself, the open file must be one it allows by itself too (policy/opened-file.ts): a command
 * left running can swap `x` for a link to `~/.ssh/id_rsa` between the check and the open.
 * Without `/proc` (macOS) the file is read by its name, as before.
 */
export async function openPinned(
  path: string,
  ctx: Pick<ToolContext, "cwd" | "services" | "allowedByPolicy">,
  tool: string,
  verb = "read",
): Promise<{ handle: FileHandle; through: string }> {
  const handle = await openRegular(path, constants.O_RDONLY, verb);
  return { handle, through: await judgedOpen(handle, path, ctx, tool, verb) };
}

/** `openPinned` for a folder (Grep's): its `through` is the open folder, to search from. */
export async function openPinnedFolder(
  path: string,
  ctx: Pick<ToolContext, "cwd" | "services" | "allowedByPolicy">,
  tool: string,
): Promise<{ handle: FileHandle; through: string }> {
  const handle = await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK);
  return { handle, through: await judgedOpen(handle, path, ctx, tool, "search") };
}

/**
 * `/proc/self/fd/N` once the open file is judged (closed and thrown when refused); `path` without
 * /proc. `below`: the handle is `path`'s folder, and the file judged is `below` in it.
 */
async function judgedOpen(
  handle: FileHandle,
  path: string,
  ctx: Pick<ToolContext, "cwd" | "services" | "allowedByPolicy">,
  tool: string,
  verb: string,
  below?: string,
): Promise<string> {
  const through = `/proc/self/fd/${handle.fd}`;
  const folder = await readlink(through).catch(() => null);
  if (folder === null) return path;
  const opened = below === undefined ? folder : `${folder.replace(/\/$/, "")}/${below}`;
  const policy = ctx.services.permissions;
  const problem =
    policy && ctx.allowedByPolicy
      ? openedFileProblem(policy, { tool, path, cwd: ctx.cwd }, opened, ctx.services.granted)
      : null;
  if (problem) {
    await handle.close();
    throw new ToolError(`Cannot ${verb} ${path}: it changed after the permission check, to ${opened} (${problem})`);
  }
  return through;
}

/** What a write is judged by once its folder is open: the call's tool and context. */
export interface WriteJudge extends Pick<ToolContext, "cwd" | "services" | "allowedByPolicy"> {
  tool: string;
}

/** `path`'s folder, opened and judged with `path`'s name in it; null without /proc. */
async function pinnedFolderOf(
  path: string,
  judge: WriteJudge,
  verb: string,
): Promise<{ handle: FileHandle; through: string } | null> {
  const handle = await open(dirname(path), constants.O_RDONLY | constants.O_DIRECTORY);
  const through = await judgedOpen(handle, path, judge, judge.tool, verb, basename(path));
  if (through !== path) return { handle, through };
  await handle.close();
  return null;
}

const isFolder = (path: string) =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

/**
 * Makes the missing folders above `path` (the file about to be written) inside the folder they are
 * judged in: the nearest existing one is opened and judged with the rest of the path below it, then
 * each new folder is made through the open one (`/proc/self/fd/N/name`) and opened without following
 * a link. A folder swapped for a link out of the workspace after the permission check therefore
 * gets no folders made outside. Without a judge or /proc: `mkdir -p`.
 */
export async function makeFoldersFor(path: string, judge?: WriteJudge, verb = "write"): Promise<void> {
  const dir = dirname(path);
  const missing: string[] = [];
  let base = dir;
  while (dirname(base) !== base && !(await isFolder(base))) {
    missing.unshift(basename(base));
    base = dirname(base);
  }
  if (!missing.length) return;
  let handle = judge ? await open(base, constants.O_RDONLY | constants.O_DIRECTORY) : undefined;
  const below = [...missing, basename(path)].join("/");
  const through = handle && judge ? await judgedOpen(handle, path, judge, judge.tool, verb, below) : path;
  if (!handle || through === path) {
    await handle?.close();
    await mkdir(dir, { recursive: true });
    return;
  }
  try {
    for (const name of missing) {
      const inside = `/proc/self/fd/${handle.fd}/${name}`;
      await mkdir(inside).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "EEXIST") throw err;
      });
      // Made a moment ago, or there already: a link put in its place is refused (ELOOP), not entered.
      const next: FileHandle = await open(inside, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      await handle.close();
      handle = next;
    }
  } finally {
    await handle.close();
  }
}

export async function readRegularFile(path: string, verb = "read"): Promise<Buffer> {
  const handle = await openRegular(path, constants.O_RDONLY, verb);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the whole content of `path` (created when missing); its mode and owner stay. The last
 * component is opened with O_NOFOLLOW: a symbolic link there (dangling or not, planted by a
 * command after the permission check) is refused, never written through.
 */
export async function writeRegularFile(path: string, data: string, verb = "write", judge?: WriteJudge): Promise<void> {
  let handle: FileHandle;
  // The folder is opened and judged first, and the file opened inside that very folder: a folder
  // swapped for a link (`d -> ~`) after the permission check cannot send the write elsewhere.
  const folder = judge ? await pinnedFolderOf(path, judge, verb) : null;
  try {
    const name = folder ? `${folder.through}/${basename(path)}` : path;
    handle = await openRegular(name, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, verb);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ELOOP") throw err;
    const target = await readlink(path).catch(() => "?");
    throw new ToolError(
      `Cannot ${verb} ${path}: it is a symbolic link (to ${target}); links are not followed, name the file itself`,
    );
  } finally {
    await folder?.handle.close();
  }
  try {
    // Truncated only once it is known to be a regular file.
    await handle.truncate(0);
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/**
 * The nearest existing ancestor of `dir` (itself included) when it is not a directory, so that
 * `e.txt/x` with a file e.txt is reported as such rather than as mkdir's EEXIST or ENOTDIR.
 */
export async function fileInTheWay(dir: string): Promise<string | null> {
  for (let current = dir; ; current = dirname(current)) {
    try {
      return (await stat(current)).isDirectory() ? null : current;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(current) === current) return null;
    }
  }
}

/** An fs error as one line: Node's messages already start with the code ("ENOSPC: no space…"). */
export function errorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const message = e?.message ?? String(err);
  return e?.code && !message.startsWith(e.code) ? `${e.code}: ${message}` : message;
}
