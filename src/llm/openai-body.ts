// The OpenAI Chat Completions body as one JSON string, assembled from each message's wire JSON
// kept from the previous request (see anthropic-body.ts). The bytes are those
// JSON.stringify(toOpenAIParams(...)) would give (tests check it).

import type OpenAI from "openai";
import type { ContentBlock, Message } from "../protocol/message.ts";
import { toOpenAIMessages, toOpenAIParams } from "./openai-wire.ts";
import type { ModelRequest } from "./types.ts";

const MESSAGES_KEY = '"messages":[]';

function hasImage(block: ContentBlock): boolean {
  return (
    block.type === "image" ||
    (block.type === "tool_result" && typeof block.content !== "string" && block.content.some((p) => p.type === "image"))
  );
}

/** Builds bodies for one conversation; keeps only the pieces of the last request. */
export class OpenAIBodyBuilder {
  private pieces = new Map<Message, string>();

  async build(
    request: ModelRequest,
    model: string,
  ): Promise<{ params: OpenAI.ChatCompletionCreateParamsStreaming; body: string }> {
    const next = new Map<Message, string>();
    const parts: string[] = request.system ? [JSON.stringify({ role: "system", content: request.system })] : [];
    for (const message of request.messages) {
      let piece = this.pieces.get(message);
      // One of our messages may become several wire messages (tool results, then a user message).
      if (piece === undefined)
        piece = (await toOpenAIMessages("", [message], request.loadImage)).map((w) => JSON.stringify(w)).join(",");
      if (!message.content.some(hasImage)) next.set(message, piece);
      if (piece) parts.push(piece);
    }
    this.pieces = next;
    const params = await toOpenAIParams({ ...request, system: "", messages: [] }, model);
    const head = JSON.stringify(params);
    const at = head.indexOf(MESSAGES_KEY);
    const body = `${head.slice(0, at)}"messages":[${parts.join(",")}]${head.slice(at + MESSAGES_KEY.length)}`;
    return { params, body };
  }
}
