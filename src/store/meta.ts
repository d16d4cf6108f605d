// meta.json: the small summary of a session that listing and resuming read without touching the
// archive. Replaced atomically (temp file, fsync, rename), so a crash leaves the old or the new.

import { readdir, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Message } from "../protocol/message.ts";
import { textOf } from "../protocol/message.ts";
import { writeFileAtomic } from "./atomic-write.ts";
import { storeError } from "./errors.ts";
import type { SessionMeta } from "./types.ts";

export const META_FILE = "meta.json";
/** Bumped when the on-disk layout changes, so a newer reader can tell old sessions apart. */
export const FORMAT = 1;
const TITLE_CHARS = 80;

export function metaPath(dir: string): string {
  return join(dir, META_FILE);
}

/**
 * What a session's meta.json says: a usable summary, nothing usable (missing, not JSON, a field of
 * the wrong type: the caller rebuilds from the archive), or a format newer than this build knows.
 */
export type MetaRead =
  | { state: "ok"; meta: SessionMeta }
  | { state: "unreadable" }
  | { state: "newer"; format: number; fields: Partial<SessionMeta> };

export async function readMeta(dir: string): Promise<MetaRead> {
  let raw: string;
  try {
    raw = await readFile(metaPath(dir), "utf8");
  } catch {
    return { state: "unreadable" };
  }
  return parseMeta(raw);
}

const STRING_FIELDS = ["id", "title", "cwd", "model"] as const;
const NUMBER_FIELDS = ["created", "updated", "messages", "bytes"] as const;

export function parseMeta(raw: string): MetaRead {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { state: "unreadable" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { state: "unreadable" };
  const v = value as Record<string, unknown>;
  // Files written before `format` existed have none: they are format 1.
  const format = v.format ?? 1;
  if (typeof format !== "number" || !Number.isInteger(format) || format < 1) return { state: "unreadable" };
  // A newer layout may mean anything by its fields; only what still has the expected type is kept, for listing.
  if (format > FORMAT) return { state: "newer", format, fields: salvage(v) };
  // Strict: a field of the wrong type means the file was damaged or hand-edited, so none of it is
  // trusted (a half-right cwd would make --continue pick the wrong session).
  for (const k of STRING_FIELDS) if (v[k] !== undefined && typeof v[k] !== "string") return { state: "unreadable" };
  for (const k of NUMBER_FIELDS) if (v[k] !== undefined && !isCount(v[k])) return { state: "unreadable" };
  if (typeof v.id !== "string" || typeof v.cwd !== "string" || typeof v.updated !== "number") return { state: "unreadable" };
  const updated = v.updated;
  return {
    state: "ok",
    meta: {
      id: v.id,
      title: (v.title as string | undefined) ?? "",
      cwd: v.cwd,
      model: (v.model as string | undefined) ?? "",
      created: (v.created as number | undefined) ?? updated,
      updated,
      messages: (v.messages as number | undefined) ?? 0,
      bytes: (v.bytes as number | undefined) ?? 0,
    },
  };
}

function isCount(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x) && x >= 0;
}

function salvage(v: Record<string, unknown>): Partial<SessionMeta> {
  const out: Record<string, unknown> = {};
  for (const k of STRING_FIELDS) if (typeof v[k] === "string") out[k] = v[k];
  for (const k of NUMBER_FIELDS) if (isCount(v[k])) out[k] = v[k];
  return out as Partial<SessionMeta>;
}

export async function writeMeta(dir: string, meta: SessionMeta): Promise<void> {
  const target = metaPath(dir);
  const data = JSON.stringify({ format: FORMAT, ...meta }, null, 2) + "\n";
  await writeFileAtomic(target, data).catch((err) => {
    throw storeError("write session meta", target, err);
  });
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
