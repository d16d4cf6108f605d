// A sub-agent's own message store, under its parent session: `sessions/<id>/tasks/<task-id>/`
// holds the same files as a session (messages.jsonl segments, meta.json, lock), so the transcript
// is bounded in memory and archived like the main one, and the parent's context never holds it.

import { join } from "node:path";
import type { StoreConfig } from "../config/config.ts";
import { acquireLock } from "./lock.ts";
import type { MessageStore } from "./message-store.ts";
import { newStore } from "./new-store.ts";
import { ensurePrivateDir } from "./paths.ts";

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
    const meta = { id: options.taskId, title: options.title, cwd: options.cwd, model: options.model };
    return await newStore({
      dir,
      lock,
      meta,
      config: options.config,
      writeMetaEarly: true,
      onWarning: options.onWarning,
    });
  } catch (err) {
    lock.release();
    throw err;
  }
}
