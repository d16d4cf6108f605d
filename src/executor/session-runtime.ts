// Opens a session: everything it owns while it is open — message store, shell pool, memory
// monitor, provider — put together by session-parts.ts, and the handle the executor drives
// (session-handle.ts; one agent run in session-submit.ts). Closing it leaves nothing behind.

import { openSessionParts, type RuntimeOptions } from "./session-parts.ts";
import { type SessionRuntime, sessionHandle } from "./session-handle.ts";

export type { RuntimeFacts, SessionRuntime } from "./session-handle.ts";
export type { RuntimeOptions } from "./session-parts.ts";

export async function openRuntime(opts: RuntimeOptions): Promise<SessionRuntime> {
  const parts = await openSessionParts(opts);
  if (opts.waitForSandbox) await parts.sandbox.ready();
  return sessionHandle(parts);
}
