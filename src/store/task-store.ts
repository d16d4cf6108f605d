// A sub-agent's own message store, under its parent session: `sessions/<id>/tasks/<task-id>/`
// holds the same files as a session (messages.jsonl segments, meta.json, lock), so the transcript
// is bounded in memory and archived like the main one, and the parent's context never holds it.

import { join } from "node:path";
import type { StoreConfig } from "../config/config.ts";
import { Archive } from "./archive.ts";
import { acquireLock } from "./lock.ts";
import { MessageStore } from "./message-store.ts";
import { ensurePrivateDir } from "./paths.ts";
import type { SessionMeta } from "./types.ts";

export interface TaskStoreOptions {
  /** The parent session's folder. */
  sessionDir: string;
  /** File-name-safe task id. */
  taskId: string;
  cwd: string;
  model: string;
  /** Title shown for the transcript (the task's label). */
  title: string;
  config: StoreConfig;
  onWarning: (message: string) => void;
}

export function taskStoreDir(sessionDir: string, taskId: string): string {
  return join(sessionDir, "tasks", taskId);
}

export async function openTaskStore(options: TaskStoreOptions): Promise<MessageStore> {
  const dir = taskStoreDir(options.sessionDir, options.taskId);
  await ensurePrivateDir(dir);
  const lock = acquireLock(dir, options.taskId);
  try {
    const now = Date.now();
    const meta: SessionMeta = {
      id: options.taskId,
      title: options.title,
      cwd: options.cwd,
      model: options.model,
      created: now,
      updated: now,
      messages: 0,
      bytes: 0,
    };
    const archive = await Archive.open({ dir, rotateBytes: options.config.rotateBytes, onWarning: options.onWarning });
    return new MessageStore({
      dir,
      config: options.config,
      meta,
      metaOnDisk: false,
      metaDirty: true,
      archive,
      lock,
      initial: [],
      onWarning: options.onWarning,
    });
  } catch (err) {
    lock.release();
    throw err;
  }
}
