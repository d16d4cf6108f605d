// An output writer consumes the agent's events and writes one of the output formats.

import type { AgentEvent } from "../../protocol/events.ts";

export interface OutputStreams {
  /** Returns false when the reader has gone (EPIPE); writers then stop writing. */
  out(text: string): void;
  err(text: string): void;
  outIsTTY: boolean;
  errIsTTY: boolean;
}

export interface OutputWriter {
  handle(event: AgentEvent): void;
}
