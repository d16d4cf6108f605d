// meta.json: the small summary of a session that listing and resuming read without touching the
// archive. Replaced atomically (temp file, fsync, rename), so a crash leaves the old or the new.

import { open, readdir, readFile, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Message } from "../protocol/message.ts";
import { textOf } from "../protocol/message.ts";
import { storeError } from "./errors.ts";
import type { SessionMeta } from "./types.ts";

export const META_FILE = "meta.json";
/** Bumped when the on-disk layout changes, so a newer reader can tell old sessions apart. */
export const FORMAT = 1;
const TITLE_CHARS = 80;

export function metaPath(dir: string): string {
  return join(dir, META_FILE);
}

/** Reads a session's meta.json; undefined when it is missing or not a session summary. */
export async function readMeta(dir: string): Promise<SessionMeta | undefined> {
  let raw: string;
  try {
    raw = await readFile(metaPath(dir), "utf8");
  } catch {
    return undefined;
  }
  try {
    const v = JSON.parse(raw) as Partial<SessionMeta>;
    if (typeof v.id !== "string" || typeof v.cwd !== "string" || typeof v.updated !== "number") return undefined;
    return {
      id: v.id,
      title: typeof v.title === "string" ? v.title : "",
      cwd: v.cwd,
      model: typeof v.model === "string" ? v.model : "",
      created: typeof v.created === "number" ? v.created : v.updated,
      updated: v.updated,
      messages: typeof v.messages === "number" ? v.messages : 0,
      bytes: typeof v.bytes === "number" ? v.bytes : 0,
    };
  } catch {
    return undefined;
  }
}

export async function writeMeta(dir: string, meta: SessionMeta): Promise<void> {
  const target = metaPath(dir);
  const temp = `${target}.${process.pid}.tmp`;
  const data = JSON.stringify({ format: FORMAT, ...meta }, null, 2) + "\n";
  try {
    const handle = await open(temp, "w", 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw storeError("write session meta", target, err);
  }
}

/** The title a session gets from its first user text: whitespace collapsed, about 80 chars. */
export function titleFrom(message: Message): string | undefined {
  if (message.role !== "user" || message.isSummary) return undefined;
  const text = textOf(message).replace(/\s+/g, " ").trim();
  if (text === "") return undefined;
  return text.length <= TITLE_CHARS ? text : `${text.slice(0, TITLE_CHARS - 1).trimEnd()}…`;
}

/** Removes temp files a killed writer left (`*.<pid>.tmp`); called under the session's lock. */
export async function removeStaleTemps(dir: string): Promise<void> {
  for (const folder of [dir, join(dir, "images")]) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) if (/\.\d+\.tmp$/.test(name)) await unlink(join(folder, name)).catch(() => undefined);
  }
}
