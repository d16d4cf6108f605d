// `-o stream-json`: one JSON object per line as things happen, in the shapes of Claude Code's
// stream-json where a line type has a counterpart there (system/init, assistant, user, result).

import type { AgentEvent } from "../../protocol/events.ts";
import type { Message } from "../../protocol/message.ts";
import { inert, inertJson, inertLine } from "../../render/inert.ts";
import { permissionNotice } from "./notices.ts";
import { resultErrorText } from "./result-error.ts";
import type { OutputStreams, OutputWriter } from "./types.ts";

export function createStreamJsonWriter(streams: OutputStreams): OutputWriter {
  let sessionId = "";
  let model = "";
  const line = (value: unknown) => streams.out(`${inertJson(value)}\n`);
  const wire = (m: Message) => ({
    id: m.id,
    type: "message",
    role: m.role,
    model,
    content: m.content,
    stop_reason: m.stop_reason ?? null,
    usage: m.usage,
  });

  return {
    handle(event: AgentEvent) {
      switch (event.type) {
        case "init":
          sessionId = event.session_id;
          model = event.model;
          line({
            type: "system",
            subtype: "init",
            session_id: sessionId,
            cwd: event.cwd,
            model: event.model,
            provider: event.provider,
            tools: event.tools,
            ...(event.mcp_servers ? { mcp_servers: event.mcp_servers } : {}),
          });
          break;
        case "assistant":
          line({
            type: "assistant",
            message: wire(event.message),
            parent_tool_use_id: event.parent_tool_use_id ?? null,
            session_id: sessionId,
          });
          break;
        case "user":
          line({
            type: "user",
            message: { role: "user", content: event.message.content },
            parent_tool_use_id: event.parent_tool_use_id ?? null,
            session_id: sessionId,
          });
          break;
        case "tool_start":
          line({ type: "tool_use", id: event.id, name: event.name, input: event.input, session_id: sessionId });
          break;
        case "tool_progress":
          line({
            type: "tool_progress",
            tool_use_id: event.id,
            name: event.name,
            text: event.text,
            session_id: sessionId,
          });
          break;
        case "turn_retry":
          line({
            type: "system",
            subtype: "api_retry",
            attempt: event.attempt,
            retry_delay_ms: event.delay_ms,
            error: event.reason,
            session_id: sessionId,
          });
          break;
        case "compact_boundary":
          // Claude Code's name and compact_metadata, with the method and the count after.
          line({
            type: "system",
            subtype: "compact_boundary",
            trigger: event.trigger,
            method: event.method,
            tokens_before: event.tokens_before,
            tokens_after: event.tokens_after,
            messages_replaced: event.messages_replaced,
            compact_metadata: { trigger: event.trigger, pre_tokens: event.tokens_before },
            session_id: sessionId,
          });
          break;
        case "compact_start":
          line({
            type: "system",
            subtype: "compact_start",
            trigger: event.trigger,
            messages: event.messages,
            keep_turns: event.keep_turns,
            session_id: sessionId,
          });
          break;
        case "warning":
          line({ type: "system", subtype: "warning", message: event.message, session_id: sessionId });
          break;
        case "permission_denied":
          line({
            type: "system",
            subtype: "permission_denied",
            tool_use_id: event.id,
            name: event.name,
            reason: event.reason,
            allow_with: event.allow_with ?? null,
            session_id: sessionId,
          });
          streams.err(`${inertLine(permissionNotice(event))}\n`);
          break;
        case "task_start":
          line({
            type: "system",
            subtype: "task_start",
            tool_use_id: event.id,
            kind: event.kind,
            description: event.description,
            session_id: sessionId,
          });
          break;
        case "task_end":
          line({
            type: "system",
            subtype: "task_end",
            tool_use_id: event.id,
            is_error: event.is_error,
            duration_ms: event.duration_ms,
            tool_calls: event.tool_calls,
            session_id: sessionId,
          });
          break;
        case "result": {
          line({ type: "result", ...event.result });
          // For the person watching stderr, as in the other formats; scripts read the result line.
          const failure = resultErrorText(event.result, false);
          if (failure !== undefined) streams.err(`error: ${inert(failure)}\n`);
          break;
        }
        // Text deltas and tool_end are carried by the assistant and user lines.
      }
    },
  };
}
