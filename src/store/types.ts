// What the rest of the program sees of a session's message store.

import type { ImageRef, Message } from "../protocol/message.ts";

export interface SessionMeta {
  id: string;
  title: string;
  cwd: string;
  model: string;
  created: number;
  updated: number;
  messages: number;
  bytes: number;
}

/** A session as `listSessions` shows it: its summary, and why it may be incomplete. */
export interface ListedSession extends SessionMeta {
  /**
   * "rebuilt": meta.json is missing or unreadable; counts and title come from the archive, cwd is
   * "" and model "?" (so --continue does not consider it). "newer": written by a newer synapse;
   * listed, never resumed. Absent for an ordinary session.
   */
  state?: "rebuilt" | "newer";
  /** One short line for the table. */
  note?: string;
}

export interface StoreStats {
  messages_archived: number;
  messages_evicted: number;
}

export interface SessionStore {
  readonly id: string;
  readonly dir: string;
  /** Adds a message to the in-memory window and queues it for the archive. */
  append(message: Message): void;
  /** The in-memory window, oldest first (what context is built from). */
  window(): readonly Message[];
  get(id: string): Message | undefined;
  /** Serialized size of the in-memory window (what a request is built from). */
  windowBytes(): number;
  /** Writes everything queued to disk (before each LLM request, after each turn, on exit). */
  flush(): Promise<void>;
  /** Every archived message, oldest first, streamed from disk. */
  readAll(): AsyncIterable<Message>;
  saveImage(bytes: Uint8Array, mediaType: string): Promise<ImageRef>;
  loadImage(ref: ImageRef): Promise<{ mediaType: string; base64: string }>;
  updateMeta(patch: Partial<Pick<SessionMeta, "title" | "model">>): void;
  /** Memory pressure: keep only the newest `keep` messages in memory. */
  shrink(keep: number): void;
  stats(): StoreStats;
  /** Messages in the session: archived, queued, and those archived by earlier runs. */
  messageCount?(): number;
  /**
   * Copies (same ids) stand in for messages in memory only, e.g. with old tool outputs pruned
   * from the context or trimmed under memory pressure (context/prune.ts); the archive keeps the
   * originals. Returns the bytes freed.
   */
  replaceInMemory?(copies: ReadonlyMap<string, Message>): number;
  close(): Promise<void>;
}
