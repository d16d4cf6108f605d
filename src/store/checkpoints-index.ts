// The checkpoint index of a session (`checkpoints/index.jsonl`): one line per prompt ("turn"), per
// file the agent first wrote in it ("before": its bytes' hash, or null when it did not exist), per
// state the agent or a restore left a file in ("after"), and per file content a restore displaced
// ("kept"). Pure: parsing lines and planning a restore; the files are checkpoints.ts's.

import * as z from "zod/mini";

/** A live session keeps the checkpoints of this many recent prompts (older ones go, with their snapshots). */
export const CHECKPOINT_TURNS = 100;

const SHA = /^[0-9a-f]{64}$/;

let built: ReturnType<typeof build> | undefined;
const schemas = () => (built ??= build());

function build() {
  const sha = z.string().check(z.regex(SHA));
  const path = z.string().check(z.minLength(1));
  return z.discriminatedUnion("t", [
    z.object({ t: z.literal("turn"), turn: z.string(), ts: z.number() }),
    z.object({
      t: z.literal("before"),
      turn: z.string(),
      path,
      sha: z.nullable(sha),
      mode: z.optional(z.number()),
      /** Why no snapshot was kept (too large): such a file cannot be restored. */
      skipped: z.optional(z.string()),
    }),
    z.object({ t: z.literal("after"), path, sha: z.nullable(sha) }),
    z.object({ t: z.literal("kept"), path, sha }),
  ]);
}

export type IndexEntry = z.infer<ReturnType<typeof build>>;
export type BeforeEntry = Extract<IndexEntry, { t: "before" }>;

/** The entries of the index's text; damaged lines (a torn last write) are skipped. */
export function parseIndex(text: string): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = z.safeParse(schemas(), value);
    if (parsed.success) entries.push(parsed.data);
  }
  return entries;
}

export function indexLine(entry: IndexEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/** The prompts with checkpoints, oldest first. */
export function turnIds(entries: readonly IndexEntry[]): string[] {
  return entries.flatMap((e) => (e.t === "turn" ? [e.turn] : []));
}

/** The entries from the `keep`-th newest turn on (all of them when there are fewer turns). */
export function lastTurns(entries: readonly IndexEntry[], keep = CHECKPOINT_TURNS): IndexEntry[] {
  let seen = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]?.t === "turn" && ++seen === keep) return entries.slice(i);
  }
  return [...entries];
}

/** Every snapshot hash the entries name. */
export function referencedBlobs(entries: readonly IndexEntry[]): Set<string> {
  const blobs = new Set<string>();
  for (const e of entries) if ((e.t === "before" || e.t === "kept") && e.sha) blobs.add(e.sha);
  return blobs;
}

/** What restoring one file to before a prompt means. */
export interface FileRestore {
  path: string;
  /** The content to put back (a snapshot's hash), null: the agent created the file (remove it). */
  target: string | null;
  /** Mode of the file then (for one that has to be created again). */
  mode?: number;
  /** Set when no snapshot was kept (too large): the file cannot be restored. */
  skipped?: string;
  /** The state synapse last left it in (undefined: unknown); anything else now was changed outside. */
  lastKnown?: string | null;
}

/**
 * The files to put back to restore the code to before prompt `turn`: each file the agent wrote in
 * that prompt or later, to its state before its first write from then on. Undefined when the
 * index has no such prompt (older than the checkpoints kept, or from before they existed).
 */
export function restorePlan(entries: readonly IndexEntry[], turn: string): FileRestore[] | undefined {
  const start = entries.findIndex((e) => e.t === "turn" && e.turn === turn);
  if (start < 0) return undefined;
  const files = new Map<string, FileRestore>();
  for (const e of entries.slice(start)) {
    if (e.t === "before" && !files.has(e.path)) {
      const restore: FileRestore = { path: e.path, target: e.sha };
      if (e.mode !== undefined) restore.mode = e.mode;
      if (e.skipped !== undefined) restore.skipped = e.skipped;
      files.set(e.path, restore);
    } else if (e.t === "after") {
      const file = files.get(e.path);
      if (file) file.lastKnown = e.sha;
    }
  }
  return [...files.values()];
}

/** Paths the agent wrote in prompt `turn` or later (for the list: "2 files changed since"). */
export function filesSince(entries: readonly IndexEntry[], turn: string): number {
  return restorePlan(entries, turn)?.length ?? 0;
}
