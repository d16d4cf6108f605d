// What a session does when the memory monitor reads critical use: fewer messages in memory, old
// large tool outputs trimmed there (the archive keeps everything), and a condense before the next
// request. The monitor only measures; this decides what to free.

import type { Message } from "../protocol/message.ts";
import type { SessionStore } from "../store/types.ts";
import { trimForMemory } from "./prune.ts";

/** Messages memory keeps at least, whatever the pressure. */
const MIN_KEPT_MESSAGES = 8;
/** The newest messages, whose tool outputs the model is still working with, are never trimmed. */
const UNTRIMMED_RECENT = 4;

export interface PressureTarget {
  store: Pick<SessionStore, "window" | "shrink" | "replaceInMemory">;
  /** The session's context manager: what it holds stays, and it condenses before the next request. */
  context: { messagesInContext(): number; request(): void };
}

export interface PressureRelief {
  /** Messages kept in memory. */
  kept: number;
  /** Bytes the trimmed tool outputs gave back. */
  freed: number;
  /** The warning the user sees. */
  message: string;
}

/** Frees what memory can give back now and asks the context for a condense. */
export function relieveMemoryPressure(
  reading: { rssMb: number; heapMb: number },
  target: PressureTarget,
): PressureRelief {
  const { store, context } = target;
  // Never below what the model's context still holds: those leave memory when the requested
  // condense has summarised them, not before.
  const kept = Math.max(MIN_KEPT_MESSAGES, Math.floor(store.window().length / 2), context.messagesInContext());
  store.shrink(kept);
  const freed = trimInMemory(store, UNTRIMMED_RECENT);
  context.request();
  const message =
    `memory use is critical (RSS ${reading.rssMb} MB, heap ${reading.heapMb} MB): kept the newest ${kept} messages ` +
    `in memory, trimmed older tool outputs (${Math.round(freed / 1024)} kB; all are on disk) and asked for compaction`;
  return { kept, freed, message };
}

function trimInMemory(store: PressureTarget["store"], keepRecent: number): number {
  const copies: Map<string, Message> = trimForMemory(store.window(), keepRecent);
  return copies.size && store.replaceInMemory ? store.replaceInMemory(copies) : 0;
}
