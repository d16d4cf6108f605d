// Synapse's executor events → ACP `session/update`s: streamed text as message chunks, each tool call
// as a `tool_call` the editor can show and follow, then its `tool_call_update`s (live output, the
// result, a real diff for Write/Edit). One mapper per session: it remembers the calls still open.

import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { ExecutorEvent } from "../executor/executor.ts";
import type { ToolResultBlock } from "../protocol/message.ts";
import type { ToolDisplay } from "../protocol/tool-display.ts";
import { toolKind, toolLocations, toolTitle } from "./tool-kind.ts";

/** Live output and results beyond this are cut (the tail kept): the editor shows a preview. */
export const CONTENT_LIMIT = 64 * 1024;

interface OpenCall {
  name: string;
  input: unknown;
  output: string;
  /** A diff was sent: the result text must not replace it. */
  diff: boolean;
}

export interface UpdateMapper {
  map(event: ExecutorEvent): SessionUpdate[];
  /** The id of the open call with this tool and input (the permission question names no call id). */
  findCall(name: string, input: unknown): string | undefined;
}

const text = (t: string): ToolCallContent => ({ type: "content", content: { type: "text", text: t } });

const tail = (t: string) => (t.length > CONTENT_LIMIT ? `…${t.slice(t.length - CONTENT_LIMIT)}` : t);

/** The changed regions of a Write/Edit, each as old/new text an editor diffs itself. */
export function diffContent(display: Extract<ToolDisplay, { kind: "diff" }>): ToolCallContent[] {
  if (display.created) {
    const lines = display.hunks.flatMap((h) => h.lines.filter((l) => l.op !== "-").map((l) => l.text));
    return [{ type: "diff", path: display.path, oldText: null, newText: lines.join("\n") }];
  }
  return display.hunks.map((h) => ({
    type: "diff" as const,
    path: display.path,
    oldText: h.lines.filter((l) => l.op !== "+").map((l) => l.text).join("\n"),
    newText: h.lines.filter((l) => l.op !== "-").map((l) => l.text).join("\n"),
  }));
}

function resultText(block: ToolResultBlock): string {
  if (typeof block.content === "string") return block.content;
  return block.content.map((b) => (b.type === "text" ? b.text : "[image]")).join("\n");
}

export function createUpdateMapper(cwd: string): UpdateMapper {
  const open = new Map<string, OpenCall>();
  const stableInput = (input: unknown) => JSON.stringify(input ?? null);

  function toolEnd(event: Extract<ExecutorEvent, { type: "tool_end" }>): SessionUpdate[] {
    const call = open.get(event.id);
    const status = event.is_error ? "failed" : "completed";
    if (event.display?.kind === "diff") {
      if (call) call.diff = true;
      return [{ sessionUpdate: "tool_call_update", toolCallId: event.id, status, content: diffContent(event.display) }];
    }
    return [{ sessionUpdate: "tool_call_update", toolCallId: event.id, status, content: [text(event.summary)] }];
  }

  /** The results the model gets back: the full text replaces the one-line summary. */
  function results(event: Extract<ExecutorEvent, { type: "user" }>): SessionUpdate[] {
    if (event.parent_tool_use_id) return [];
    const updates: SessionUpdate[] = [];
    for (const block of event.message.content) {
      if (block.type !== "tool_result" || !open.has(block.tool_use_id)) continue;
      const call = open.get(block.tool_use_id)!;
      open.delete(block.tool_use_id);
      if (call.diff) continue;
      const status = block.is_error ? "failed" : "completed";
      updates.push({ sessionUpdate: "tool_call_update", toolCallId: block.tool_use_id, status, content: [text(tail(resultText(block)))] });
    }
    return updates;
  }

  return {
    map(event) {
      switch (event.type) {
        case "text_delta":
          return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } }];
        case "turn_retry":
          // The partial answer already shown cannot be taken back: say why it starts again.
          return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `(retrying: ${event.reason})\n` } }];
        case "tool_start": {
          open.set(event.id, { name: event.name, input: event.input, output: "", diff: false });
          return [{
            sessionUpdate: "tool_call",
            toolCallId: event.id,
            title: toolTitle(event.name, event.input),
            kind: toolKind(event.name, event.input),
            status: "pending",
            locations: toolLocations(event.name, event.input, cwd),
            rawInput: event.input,
          }];
        }
        case "tool_progress": {
          const call = open.get(event.id);
          if (!call) return [];
          call.output = tail(call.output + event.text);
          return [{ sessionUpdate: "tool_call_update", toolCallId: event.id, status: "in_progress", content: [text(call.output)] }];
        }
        case "tool_end":
          return toolEnd(event);
        case "permission_denied":
          return [{ sessionUpdate: "tool_call_update", toolCallId: event.id, status: "failed", content: [text(`Permission denied: ${event.reason}`)] }];
        case "user":
          return results(event);
        case "command_output":
          return event.lines.length ? [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${event.lines.join("\n")}\n` } }] : [];
        default:
          return [];
      }
    },

    findCall(name, input) {
      const wanted = stableInput(input);
      let found: string | undefined;
      let sameTool: string | undefined;
      for (const [id, call] of open) {
        if (call.name !== name) continue;
        sameTool = id;
        if (stableInput(call.input) === wanted) found = id;
      }
      // The gate sees the input as parsed (explicit nulls left out): the newest call of that tool then.
      return found ?? sameTool;
    },
  };
}
