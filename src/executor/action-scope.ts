// What an input action may touch: the live session, the counters, the UI's event stream. A module
// of its own so that handlers in other files (rewind-action.ts) need not import the dispatcher.

import type { ExecutorEvent } from "./executor-types.ts";
import type { LiveSession } from "./live-session.ts";
import type { SessionCounters } from "./session-counters.ts";

export interface ActionScope {
  session: LiveSession;
  counters: SessionCounters;
  emit(event: ExecutorEvent): void;
}
