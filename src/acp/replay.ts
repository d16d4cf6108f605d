// A stored session told again as `session/update`s, for `session/load`: the user's prompts, the
// answers, and each tool call with its result, so the editor shows the conversation it resumes. Pure.

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Message } from "../protocol/message.ts";
import { CONTENT_LIMIT } from "./event-updates.ts";
import { toolKind, toolLocations, toolTitle } from "./tool-kind.ts";

const cut = (t: string) => (t.length > CONTENT_LIMIT ? `${t.slice(0, CONTENT_LIMIT)}…` : t);

export function replayUpdates(messages: readonly Message[], cwd: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "text" && block.text) {
        const sessionUpdate = message.role === "user" ? "user_message_chunk" : "agent_message_chunk";
        updates.push({ sessionUpdate, content: { type: "text", text: block.text } });
      } else if (block.type === "tool_use") {
        updates.push({
          sessionUpdate: "tool_call",
          toolCallId: block.id,
          title: toolTitle(block.name, block.input),
          kind: toolKind(block.name, block.input),
          status: "pending",
          locations: toolLocations(block.name, block.input, cwd),
          rawInput: block.input,
        });
      } else if (block.type === "tool_result") {
        const parts =
          typeof block.content === "string"
            ? [block.content]
            : block.content.map((b) => (b.type === "text" ? b.text : "[image]"));
        const text = parts.join("\n");
        updates.push({
          sessionUpdate: "tool_call_update",
          toolCallId: block.tool_use_id,
          status: block.is_error ? "failed" : "completed",
          content: [{ type: "content", content: { type: "text", text: cut(text) } }],
        });
      }
    }
  }
  return updates;
}
