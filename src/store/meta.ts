// meta.json: the small summary of a session that listing and resuming read without touching the
// archive. Replaced atomically (temp file, fsync, rename), so a crash leaves the old or the new.

import { readdir, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import type { Message } from "../protocol/message.ts";
import { parseUserShellText } from "../protocol/user-shell-text.ts";
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

function build() {
  const count = z.number().check(z.nonnegative());
  const fields = {
    id: z.string(),
    title: z.string(),
    cwd: z.string(),
    model: z.string(),
    created: count,
    updated: count,
    messages: count,
    bytes: count,
  };
  return {
    fields,
    // Files written before `format` existed have none: they are format 1.
    formatOnly: z.looseObject({ format: z.optional(z.int().check(z.positive())) }),
    // Strict: a field of the wrong type means the file was damaged or hand-edited, so none of it is
    // trusted (a half-right cwd would make --continue pick the wrong session).
    metaFile: z.object({
      ...fields,
      title: z.optional(fields.title),
      model: z.optional(fields.model),
      created: z.optional(fields.created),
      messages: z.optional(fields.messages),
      bytes: z.optional(fields.bytes),
    }),
  };
}
// Built on first use: a run that reads no meta.json never pays for them.
let built: ReturnType<typeof build> | undefined;

export function parseMeta(raw: string): MetaRead {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { state: "unreadable" };
  }
  built ??= build();
  const { formatOnly, metaFile, fields } = built;
  const head = z.safeParse(formatOnly, value);
  if (!head.success || Array.isArray(value)) return { state: "unreadable" };
  const format = head.data.format ?? 1;
  // A newer layout may mean anything by its fields; only what still has the expected type is kept, for listing.
  if (format > FORMAT) return { state: "newer", format, fields: salvage(head.data, fields) };
  const parsed = z.safeParse(metaFile, value);
  if (!parsed.success) return { state: "unreadable" };
  const v = parsed.data;
  return {
    state: "ok",
    meta: {
      id: v.id,
      title: v.title ?? "",
      cwd: v.cwd,
      model: v.model ?? "",
      created: v.created ?? v.updated,
      updated: v.updated,
      messages: v.messages ?? 0,
      bytes: v.bytes ?? 0,
    },
  };
}

/** The fields that still have the type this version expects. */
function salvage(v: Record<string, unknown>, fields: Record<string, z.ZodMiniType>): Partial<SessionMeta> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(fields)) if (z.safeParse(schema, v[key]).success) out[key] = v[key];
  return out as Partial<SessionMeta>;
}

/** `durable: false` leaves out the fsync (see atomic-write.ts); the caller owes a durable write soon. */
export async function writeMeta(dir: string, meta: SessionMeta, durable = true): Promise<void> {
  const target = metaPath(dir);
  const data = `${JSON.stringify({ format: FORMAT, ...meta }, null, 2)}\n`;
  await writeFileAtomic(target, data, 0o600, durable).catch((err) => {
    throw storeError("write session meta", target, err);
  });
}

/**
 * The title a session gets from its first user text: whitespace collapsed, about 80 chars. Only
 * the first block (an `@file`'s contents follow the prompt); a `!command` is titled by its command.
 */
export function titleFrom(message: Message): string | undefined {
  if (message.role !== "user" || message.isSummary) return undefined;
  const first = message.content.find((b) => b.type === "text")?.text ?? "";
  const text = (parseUserShellText(first)?.command ?? first).replace(/\s+/g, " ").trim();
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
