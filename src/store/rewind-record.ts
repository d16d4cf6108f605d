// A conversation rewind (`/rewind`) is a record in the archive, not a rewrite of it: a line naming
// the prompt the conversation goes back to before. Readers drop the record and every message from
// that prompt up to it, so resume, replay and titles see the rewound conversation, and a kill -9
// leaves either the record (rewound) or not (not yet), never half of it. Nothing above the store
// ever sees a record.

import * as z from "zod/mini";
import { newMessageId, type Message } from "../protocol/message.ts";
import { parseLine } from "./message-line.ts";
import { type ArchiveSnapshot, segmentLines } from "./segments.ts";

/** The record as archived: a message head (old readers skip it as an empty message) and its target. */
export interface RewindRecord extends Message {
  rewind: { to: string };
}

let schema: z.ZodMiniType<{ to: string }> | undefined;
const rewindSchema = () => (schema ??= z.object({ to: z.string().check(z.minLength(1)) }));

export function rewindRecord(to: string, now = Date.now()): RewindRecord {
  return { id: newMessageId(), role: "user", content: [], ts: now, rewind: { to } };
}

/** The target of a rewind record, or undefined for any other message (or a damaged record). */
export function rewindTarget(message: Message): string | undefined {
  const field = (message as Partial<RewindRecord>).rewind;
  if (field === undefined) return undefined;
  const parsed = z.safeParse(rewindSchema(), field);
  return parsed.success ? parsed.data.to : undefined;
}

/** Whether the message is a rewind record (valid or damaged): either way it is never conversation. */
export function isRewindRecord(message: Message): boolean {
  return (message as Partial<RewindRecord>).rewind !== undefined;
}

/**
 * The messages with every rewind applied, in order. A record whose target is not before it in
 * `items` (the target lies before a bounded window) rewinds everything before it: all of that
 * came after the target.
 */
export function applyRewinds<T>(items: readonly T[], messageOf: (item: T) => Message): T[] {
  const kept: T[] = [];
  const at = new Map<string, number>();
  for (const item of items) {
    const message = messageOf(item);
    if (!isRewindRecord(message)) {
      at.set(message.id, kept.length);
      kept.push(item);
      continue;
    }
    const to = rewindTarget(message);
    if (to === undefined) continue;
    const from = at.get(to) ?? 0;
    for (const gone of kept.splice(from)) at.delete(messageOf(gone).id);
  }
  return kept;
}

/**
 * A streaming filter for the whole archive read in order, given the records found by a first
 * pass (`target -> record id`): skips from a target to its record. A record met before its target
 * is ignored (a hand-edited archive), so it can never hide what follows it.
 */
export class RewindFilter {
  private skipUntil: string | undefined;

  constructor(private readonly targets: Map<string, string>) {}

  /** Whether the message belongs to the conversation. */
  keep(message: Message): boolean {
    if (this.skipUntil !== undefined) {
      if (message.id === this.skipUntil) this.skipUntil = undefined;
      return false;
    }
    if (isRewindRecord(message)) {
      const to = rewindTarget(message);
      if (to !== undefined && this.targets.get(to) === message.id) this.targets.delete(to);
      return false;
    }
    const record = this.targets.get(message.id);
    if (record === undefined) return true;
    this.skipUntil = record;
    return false;
  }
}

/** Whether an archive line may hold a rewind record (a substring test spares the others a parse). */
export function mayBeRewind(line: string): boolean {
  return line.includes('"rewind":');
}

/**
 * The first pass of an archive read (RewindFilter's `targets`): `target -> record id` of every
 * rewind record in the snapshot. Only lines that may hold one are parsed.
 */
export async function rewindTargets(snapshot: ArchiveSnapshot): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  const quiet = () => undefined;
  const note = (message: Message | undefined) => {
    const to = message && rewindTarget(message);
    if (message && to !== undefined) targets.set(to, message.id);
  };
  for (const segment of snapshot.segments) {
    if (segment.size === 0) continue;
    for await (const line of segmentLines(segment, quiet))
      if (mayBeRewind(line.text)) note(parseLine(line, segment.path, quiet));
  }
  for (const text of snapshot.queued) if (mayBeRewind(text)) note(JSON.parse(text) as Message);
  return targets;
}
