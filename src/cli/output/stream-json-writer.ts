// `-o stream-json`: one JSON object per line as things happen, in the shapes of Claude Code's
// stream-json where a line type has a counterpart there (system/init, assistant, user, result,
// stream_event), with the fields a program on the Claude Agent SDK reads: a `uuid` on each line,
// init's permissionMode and version, a result's permission_denials and, when it failed, `errors`.

import { assertNever } from "../../protocol/assert-never.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import type { Message } from "../../protocol/message.ts";
import { inert, inertJson, inertLine } from "../../render/inert.ts";
import { createDenialLog } from "./denials.ts";
import { permissionNotice } from "./notices.ts";
import { resultErrorText } from "./result-error.ts";
import { createPartialEvents } from "./stream-json-partial.ts";
import type { OutputStreams, OutputWriter } from "./types.ts";

export interface StreamJsonOptions {
  /** The mode tool calls are judged in now, in Claude Code's spelling (init's permissionMode). */
  permissionMode?: () => string;
  /** `--include-partial-messages`: stream_event lines as the text streams. */
  partial?: boolean;
  /** init's claude_code_version: what this build is and the protocol it speaks, never a Claude Code version. */
  version?: string;
  /** init's apiKeySource for the provider the session uses: the variable's name, never its value. */
  apiKeySource?: (provider: string) => string;
}

export function createStreamJsonWriter(streams: OutputStreams, opts: StreamJsonOptions = {}): OutputWriter {
  let sessionId = "";
  let model = "";
  const denials = createDenialLog();
  const partial = opts.partial ? createPartialEvents(() => model) : undefined;
  // A sub-agent's task_start comes before its call's tool_start (status rows must know the call is
  // a task first); a program reading the stream must see the call first, so the line waits for it.
  const heldTaskStarts = new Map<string, object>();
  const releaseTaskStart = (id: string) => {
    const held = heldTaskStarts.get(id);
    if (!held) return;
    heldTaskStarts.delete(id);
    line(held);
  };
  const line = (value: object) => streams.out(`${inertJson({ ...value, uuid: crypto.randomUUID() })}\n`);
  const streamEvents = (events: object[], parent?: string) => {
    for (const event of events)
      line({ type: "stream_event", event, parent_tool_use_id: parent ?? null, session_id: sessionId });
  };
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
          line(initLine(event, opts));
          denials.take();
          break;
        case "text_delta":
          if (partial) streamEvents(partial.delta(event.text));
          break;
        case "assistant":
          if (partial && !event.parent_tool_use_id) streamEvents(partial.finish(event.message.stop_reason ?? null));
          line({
            type: "assistant",
            message: wire(event.message),
            parent_tool_use_id: event.parent_tool_use_id ?? null,
            session_id: sessionId,
          });
          break;
        case "tool_start":
          denials.see(event);
          line({ type: "tool_use", id: event.id, name: event.name, input: event.input, session_id: sessionId });
          releaseTaskStart(event.id);
          break;
        case "task_start":
          heldTaskStarts.set(event.id, {
            type: "system",
            subtype: "task_start",
            tool_use_id: event.id,
            kind: event.kind,
            description: event.description,
            session_id: sessionId,
          });
          break;
        case "turn_retry":
          partial?.reset();
          line({
            type: "system",
            subtype: "api_retry",
            attempt: event.attempt,
            retry_delay_ms: event.delay_ms,
            error: event.reason,
            session_id: sessionId,
          });
          break;
        case "permission_denied":
          denials.see(event);
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
        case "result": {
          for (const id of [...heldTaskStarts.keys()]) releaseTaskStart(id);
          // For the person watching stderr, as in the other formats; scripts read the result line.
          const failure = resultErrorText(event.result, false);
          line({
            type: "result",
            ...event.result,
            permission_denials: denials.take(),
            // The SDK reads a failed result's reasons from `errors`.
            ...(event.result.subtype === "success" ? {} : { errors: [failure ?? event.result.result] }),
          });
          if (failure !== undefined) streams.err(`error: ${inert(failure)}\n`);
          break;
        }
        default: {
          if (event.type === "task_end") releaseTaskStart(event.id);
          const plain = plainLine(event, sessionId);
          if (plain) line(plain);
        }
      }
    },
  };
}

/** The `system`/`init` line, with what a program on the Claude Agent SDK reads from it. */
function initLine(event: Extract<AgentEvent, { type: "init" }>, opts: StreamJsonOptions): object {
  return {
    type: "system",
    subtype: "init",
    session_id: event.session_id,
    cwd: event.cwd,
    model: event.model,
    provider: event.provider,
    tools: event.tools,
    mcp_servers: event.mcp_servers ?? [],
    ...(opts.permissionMode ? { permissionMode: opts.permissionMode() } : {}),
    ...(opts.version ? { claude_code_version: opts.version } : {}),
    apiKeySource: opts.apiKeySource?.(event.provider) ?? "none",
    slash_commands: [],
    output_style: "default",
  };
}

type PlainEvent = Exclude<
  AgentEvent,
  {
    type:
      | "init"
      | "text_delta"
      | "assistant"
      | "tool_start"
      | "task_start"
      | "turn_retry"
      | "permission_denied"
      | "result";
  }
>;

/** The line of an event that needs none of the writer's state but the session id; undefined: none. */
function plainLine(event: PlainEvent, sessionId: string): object | undefined {
  switch (event.type) {
    case "user":
      return {
        type: "user",
        message: { role: "user", content: event.message.content },
        parent_tool_use_id: event.parent_tool_use_id ?? null,
        session_id: sessionId,
      };
    case "tool_progress":
      return {
        type: "tool_progress",
        tool_use_id: event.id,
        name: event.name,
        text: event.text,
        session_id: sessionId,
      };
    case "compact_boundary":
      // Claude Code's name and compact_metadata, with the method and the count after.
      return {
        type: "system",
        subtype: "compact_boundary",
        trigger: event.trigger,
        method: event.method,
        tokens_before: event.tokens_before,
        tokens_after: event.tokens_after,
        messages_replaced: event.messages_replaced,
        compact_metadata: { trigger: event.trigger, pre_tokens: event.tokens_before },
        session_id: sessionId,
      };
    case "compact_start":
      return {
        type: "system",
        subtype: "compact_start",
        trigger: event.trigger,
        messages: event.messages,
        keep_turns: event.keep_turns,
        session_id: sessionId,
      };
    case "warning":
      return { type: "system", subtype: "warning", message: event.message, session_id: sessionId };
    case "task_end":
      return {
        type: "system",
        subtype: "task_end",
        tool_use_id: event.id,
        is_error: event.is_error,
        duration_ms: event.duration_ms,
        tool_calls: event.tool_calls,
        session_id: sessionId,
      };
    // No line of their own: a call's result is in the user line, a sub-agent's progress is for live rows.
    case "tool_end":
    case "task_progress":
      return undefined;
    default:
      return assertNever(event, "agent event");
  }
}
