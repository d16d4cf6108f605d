// The Anthropic request body as one JSON string, assembled from each message's wire JSON kept from
// the previous request: a long conversation is not serialised again every turn, only what is new.
// The bytes are those JSON.stringify(toAnthropicParams(...)) would give, given the same anchor
// (the last request's end of the prefix a prune keeps; tests check it).

import type Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, Message } from "../protocol/message.ts";
import { toAnthropicMessages, toAnthropicParams } from "./anthropic-wire.ts";
import { innerBreakpoints, stablePrefixEnd } from "./cache-breakpoints.ts";
import type { ModelRequest } from "./types.ts";
import { itemAt } from "../text/checked-index.ts";

const MESSAGES_KEY = '"messages":[]';

function hasImage(block: ContentBlock): boolean {
  return (
    block.type === "image" ||
    (block.type === "tool_result" && typeof block.content !== "string" && block.content.some((p) => p.type === "image"))
  );
}

/**
 * Builds bodies for one conversation. Only the pieces of the last request are kept, so what the
 * cache holds is bounded by one request; messages with images are never cached (their bytes are
 * loaded per request).
 */
export class AnthropicBodyBuilder {
  private pieces = new Map<Message, string>();
  /** The last request's end of the prefix a prune keeps (cache-breakpoints.ts). */
  private anchor: Message | undefined;

  async build(
    request: ModelRequest,
    model: string,
  ): Promise<{ params: Anthropic.Messages.MessageCreateParamsStreaming; body: string }> {
    const next = new Map<Message, string>();
    const parts: string[] = [];
    let last = -1;
    for (const message of request.messages) {
      let piece = this.pieces.get(message);
      if (piece === undefined) {
        const [wire] = await toAnthropicMessages([message], request.loadImage);
        piece = wire ? JSON.stringify(wire) : "";
      }
      if (!message.content.some(hasImage)) next.set(message, piece);
      if (piece) last = parts.length;
      parts.push(piece);
    }
    this.pieces = next;
    // The last non-empty message and the inner breakpoints (cache-breakpoints.ts) carry cache_control:
    // built apart (parts is parallel to request.messages; a lone message gets its breakpoint as the last).
    const inner = innerBreakpoints(request.messages, this.anchor);
    const stable = stablePrefixEnd(request.messages);
    this.anchor = stable >= 0 ? request.messages[stable] : undefined;
    for (const at of new Set([...inner, last])) {
      if (at < 0 || !parts[at]) continue;
      const params = await toAnthropicParams({ ...request, messages: [itemAt(request.messages, at)] }, model);
      parts[at] = JSON.stringify(params.messages[0]);
    }
    const params = await toAnthropicParams({ ...request, messages: [] }, model);
    const head = JSON.stringify(params);
    const at = head.indexOf(MESSAGES_KEY);
    const messages = `"messages":[${parts.filter((p) => p).join(",")}]`;
    const body = `${head.slice(0, at)}${messages}${head.slice(at + MESSAGES_KEY.length)}`;
    return { params, body };
  }
}
