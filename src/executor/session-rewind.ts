// `/rewind` for an open session: the prompts it can go back to, the file checkpoints each prompt
// of the main agent starts (store/checkpoints.ts), putting the code back, and the conversation's
// rewind record (store/rewind-record.ts). The executor reopens the session after a conversation
// rewind, so what it holds is exactly what a resume would read.

import type { Message } from "../protocol/message.ts";
import { CheckpointStore } from "../store/checkpoints.ts";
import { filesSince, turnIds } from "../store/checkpoints-index.ts";
import { type RestoredFile, restoreCode } from "../store/checkpoints-restore.ts";
import type { SessionStore } from "../store/types.ts";
import type { ToolServices } from "../tools/types.ts";

/** A prompt the session can be rewound to (the state before it). */
export interface RewindPoint {
  /** The prompt's message id. */
  id: string;
  /** 1 for the oldest prompt listed. */
  n: number;
  /** The prompt as typed (its first text block). */
  text: string;
  ts: number;
  /** Files the agent wrote (Write, Edit) in this prompt or later. */
  files: number;
  /** The conversation's first message: rewinding to it leaves the session without a title. */
  first: boolean;
}

const stores = new WeakMap<object, CheckpointStore>();

/** The session's checkpoint store (one per open store). */
export function checkpointsOf(store: Pick<SessionStore, "dir">): CheckpointStore {
  let found = stores.get(store);
  if (!found) {
    found = new CheckpointStore(store.dir);
    stores.set(store, found);
  }
  return found;
}

/** The Write/Edit hook for the main agent's tool calls. */
export function checkpointHook(store: Pick<SessionStore, "dir">): NonNullable<ToolServices["checkpoints"]> {
  const checkpoints = checkpointsOf(store);
  return {
    beforeWrite: (path) => checkpoints.beforeWrite(path),
    afterWrite: (path, text) => checkpoints.afterWrite(path, text),
  };
}

/**
 * Called before `runAgent`, which stores the prompt after its hooks ran: the prompt is the first
 * message stored after this point, found at the prompt's first write or its end. Returns the end.
 */
export function beginCheckpointTurn(store: SessionStore, warn: (message: string) => void): () => Promise<void> {
  const checkpoints = checkpointsOf(store);
  const before = store.messageCount?.() ?? 0;
  checkpoints.beginTurn(() => {
    const added = (store.messageCount?.() ?? 0) - before;
    const window = store.window();
    const prompt = added > 0 ? window[window.length - added] : undefined;
    return prompt?.role === "user" ? prompt.id : undefined;
  });
  return () => checkpoints.endTurn().catch((err) => warn(`file checkpoints: ${(err as Error).message}`));
}

const promptText = (m: Message) => (m.content.find((b) => b.type === "text") as { text: string } | undefined)?.text;

/** The prompts of the conversation that have checkpoints, oldest first. */
export async function rewindPoints(store: SessionStore): Promise<RewindPoint[]> {
  const checkpoints = checkpointsOf(store);
  await checkpoints.settled();
  const entries = await checkpoints.entries();
  const turns = new Set(turnIds(entries));
  const points: RewindPoint[] = [];
  if (turns.size === 0) return points;
  let first = true;
  for await (const message of store.readAll()) {
    const isPoint = message.role === "user" && turns.has(message.id);
    if (isPoint) {
      const text = promptText(message) ?? "";
      const files = filesSince(entries, message.id);
      points.push({ id: message.id, n: points.length + 1, text, ts: message.ts, files, first });
    }
    first = false;
  }
  return points;
}

/** Puts the files back to before prompt `to`; undefined when it has no checkpoint. */
export function restoreFiles(store: SessionStore, to: string): Promise<RestoredFile[] | undefined> {
  return restoreCode(checkpointsOf(store), to);
}

/** Writes the conversation's rewind record (the title goes when the first prompt does), saved at once. */
export async function rewindConversation(
  store: SessionStore & { rewind(to: string, title?: string): void },
  to: string,
  first: boolean,
): Promise<void> {
  store.rewind(to, first ? "" : undefined);
  await store.flush();
}
