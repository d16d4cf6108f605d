// `-o json`: one result object at the end, nothing else on stdout.

import type { AgentEvent } from "../../protocol/events.ts";
import type { OutputStreams, OutputWriter } from "./types.ts";

export function createJsonWriter(streams: OutputStreams): OutputWriter {
  return {
    handle(event: AgentEvent) {
      if (event.type === "result") streams.out(`${JSON.stringify({ type: "result", ...event.result })}\n`);
    },
  };
}
