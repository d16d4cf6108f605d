// An empty store in a folder just made and locked: a new session's, or a sub-agent's under it.

import type { StoreConfig } from "../config/config.ts";
import { Archive } from "./archive.ts";
import type { SessionLock } from "./lock.ts";
import { MessageStore } from "./message-store.ts";
import type { SessionMeta } from "./types.ts";

export interface NewStoreOptions {
  dir: string;
  /** Held by the caller, who releases it if this fails. */
  lock: SessionLock;
  meta: Pick<SessionMeta, "id" | "title" | "cwd" | "model">;
  config: StoreConfig;
  /**
   * Whether meta.json is written with the first flush even if no message is: a sub-agent's folder
   * is kept, a new session's with no message is removed at close.
   */
  writeMetaEarly: boolean;
  onWarning: (message: string) => void;
}

export async function newStore(options: NewStoreOptions): Promise<MessageStore> {
  const { dir, config, onWarning } = options;
  const now = Date.now();
  const meta: SessionMeta = { ...options.meta, created: now, updated: now, messages: 0, bytes: 0 };
  const archive = await Archive.open({ dir, rotateBytes: config.rotateBytes, onWarning });
  return new MessageStore({
    dir,
    config,
    meta,
    metaOnDisk: false,
    metaDirty: options.writeMetaEarly,
    archive,
    lock: options.lock,
    initial: [],
    onWarning,
  });
}
