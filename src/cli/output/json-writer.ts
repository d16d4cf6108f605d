// `-o json`: one result object on stdout at the end; warnings, retries and a failure's `error:`
// line still reach stderr.

import type { AgentEvent } from "../../protocol/events.ts";
import { inert, inertJson, inertLine } from "../../render/inert.ts";
import { compactNotice, compactStartNotice, permissionNotice, retryNotice } from "./notices.ts";
import { resultErrorText } from "./result-error.ts";
import type { OutputStreams, OutputWriter } from "./types.ts";

export function createJsonWriter(streams: OutputStreams, opts: { quiet: boolean }): OutputWriter {
  return {
    handle(event: AgentEvent) {
      if (event.type === "result") {
        streams.out(`${inertJson({ type: "result", ...event.result })}\n`);
        const failure = resultErrorText(event.result, false);
        if (failure !== undefined) streams.err(`error: ${inert(failure)}\n`);
      } else if (event.type === "warning") streams.err(`warning: ${inert(event.message)}\n`);
      else if (event.type === "permission_denied") streams.err(`${inertLine(permissionNotice(event))}\n`);
      else if (event.type === "compact_boundary" && !opts.quiet) streams.err(`${compactNotice(event)}\n`);
      else if (event.type === "compact_start" && !opts.quiet) streams.err(`${compactStartNotice(event)}\n`);
      else if (event.type === "turn_retry" && !opts.quiet) {
        streams.err(`${inertLine(retryNotice(event))}\n`);
      }
    },
  };
}
