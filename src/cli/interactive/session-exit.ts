// The end of an interactive session, the same on a full terminal and a dumb one: everything the
// session started is interrupted, the session saved, and the line that says how to resume it.

import type { Executor } from "../../executor/executor.ts";
import { errorMessage } from "../../protocol/errors.ts";

/** Closes the session; `line` is what to print last (empty when nothing was saved), `failed` when saving failed. */
export async function closeSession(executor: Executor): Promise<{ line: string; failed: boolean }> {
  const id = executor.runtime.sessionId;
  // A session that never got a message leaves nothing on disk: nothing to resume.
  const empty = executor.facts().messagesInMemory === 0;
  executor.interruptAll();
  try {
    await executor.close();
    return { line: empty ? "" : `session ${id} saved · resume it with: synapse -r ${id}\n`, failed: false };
  } catch (err) {
    return { line: `synapse: could not save session ${id}: ${errorMessage(err)}\n`, failed: true };
  }
}
