// `-o json`: one result object on stdout at the end; warnings, retries and a failure's `error:`
// line still reach stderr.

import { assertNever } from "../../protocol/assert-never.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import { inert, inertJson, inertLine } from "../../render/inert.ts";
import { createDenialLog } from "./denials.ts";
import { compactNotice, compactStartNotice, permissionNotice, retryNotice } from "./notices.ts";
import { resultErrorText } from "./result-error.ts";
import type { OutputStreams, OutputWriter } from "./types.ts";

export function createJsonWriter(streams: OutputStreams, opts: { quiet: boolean }): OutputWriter {
  const denials = createDenialLog();
  return {
    handle(event: AgentEvent) {
      denials.see(event);
      switch (event.type) {
        case "result": {
          const result = { type: "result", ...event.result, permission_denials: denials.take() };
          // Claude Code's result carries a uuid of its own, as every line of its stream-json does.
          streams.out(`${inertJson({ ...result, uuid: crypto.randomUUID() })}\n`);
          const failure = resultErrorText(event.result, false);
          if (failure !== undefined) streams.err(`error: ${inert(failure)}\n`);
          return;
        }
        case "warning":
          streams.err(`warning: ${inert(event.message)}\n`);
          return;
        case "permission_denied":
          streams.err(`${inertLine(permissionNotice(event))}\n`);
          return;
        case "compact_boundary":
          if (!opts.quiet) streams.err(`${compactNotice(event)}\n`);
          return;
        case "compact_start":
          if (!opts.quiet) streams.err(`${compactStartNotice(event)}\n`);
          return;
        case "turn_retry":
          if (!opts.quiet) streams.err(`${inertLine(retryNotice(event))}\n`);
          return;
        // The result object carries the run; nothing else is printed as it happens.
        case "init":
        case "text_delta":
        case "assistant":
        case "tool_start":
        case "tool_progress":
        case "tool_end":
        case "user":
        case "task_start":
        case "task_progress":
        case "task_end":
          return;
        default:
          assertNever(event, "agent event");
      }
    },
  };
}
