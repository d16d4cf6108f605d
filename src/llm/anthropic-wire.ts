// Builds an Anthropic Messages request body from our request: messages, images, tool results,
// system prompt and tools, with prompt-cache breakpoints on the parts that repeat every turn.

import type Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, ImageBlock, Message, TextBlock } from "../protocol/message.ts";
import { innerBreakpoints } from "./cache-breakpoints.ts";
import type { ModelRequest } from "./types.ts";
import { itemAt } from "../text/checked-index.ts";

type Block = Anthropic.ContentBlockParam;
type Params = Anthropic.Messages.MessageCreateParamsStreaming;

// A conversation resends the tools, the system prompt and the history each turn, and the API caches
// by prefix up to each cache_control breakpoint (at most 4 a request). We mark the system prompt
// (its prefix holds the tools; the last tool only when there is no system prompt), the newest
// compaction record and the end of the prefix a prune keeps (cache-breakpoints.ts), and the end of
// the conversation (moving, turn by turn).
const CACHE = { type: "ephemeral" } as const;

type LoadImage = ModelRequest["loadImage"];

async function imageBlock(block: ImageBlock, loadImage: LoadImage): Promise<Anthropic.ImageBlockParam> {
  const { mediaType, base64 } = await loadImage(block.image);
  return {
    type: "image",
    source: { type: "base64", media_type: mediaType as Anthropic.Base64ImageSource["media_type"], data: base64 },
  };
}

async function resultContent(
  content: string | Array<TextBlock | ImageBlock>,
  loadImage: LoadImage,
): Promise<string | Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam>> {
  if (typeof content === "string") return content;
  const out: Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> = [];
  for (const part of content) {
    if (part.type === "text") {
      if (part.text) out.push({ type: "text", text: part.text });
    } else {
      out.push(await imageBlock(part, loadImage));
    }
  }
  return out;
}

async function toBlock(block: ContentBlock, loadImage: LoadImage): Promise<Block | undefined> {
  switch (block.type) {
    case "text":
      // The API rejects empty text blocks.
      return block.text ? { type: "text", text: block.text } : undefined;
    case "image":
      return imageBlock(block, loadImage);
    case "tool_use": {
      const input = block.input && typeof block.input === "object" ? block.input : { value: block.input };
      return { type: "tool_use", id: block.id, name: block.name, input };
    }
    case "tool_result": {
      const content = await resultContent(block.content, loadImage);
      const empty = typeof content === "string" ? content === "" : content.length === 0;
      return {
        type: "tool_result",
        tool_use_id: block.tool_use_id,
        ...(empty ? {} : { content }),
        ...(block.is_error ? { is_error: true } : {}),
      };
    }
  }
}

export async function toAnthropicMessages(
  messages: Message[],
  loadImage: LoadImage,
): Promise<Anthropic.MessageParam[]> {
  const out: Anthropic.MessageParam[] = [];
  for (const message of messages) {
    const blocks: Block[] = [];
    for (const block of message.content) {
      const converted = await toBlock(block, loadImage);
      if (converted) blocks.push(converted);
    }
    if (blocks.length === 0) continue;
    // The API wants a user turn's tool_result blocks before anything else in that turn.
    if (message.role === "user")
      blocks.sort((a, b) => Number(b.type === "tool_result") - Number(a.type === "tool_result"));
    out.push({ role: message.role, content: blocks });
  }
  return out;
}

function withBreakpoint(message: Anthropic.MessageParam): Anthropic.MessageParam {
  const blocks = [...(message.content as Block[])];
  blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: CACHE } as Block;
  return { ...message, content: blocks } as Anthropic.MessageParam;
}

/** `anchor`: the end of the prefix the last request's prune kept (see innerBreakpoints). */
export async function toAnthropicParams(request: ModelRequest, model: string, anchor?: Message): Promise<Params> {
  const inner = new Set(innerBreakpoints(request.messages, anchor));
  const messages: Anthropic.MessageParam[] = [];
  for (let i = 0; i < request.messages.length; i++) {
    const [wire] = await toAnthropicMessages([itemAt(request.messages, i)], request.loadImage);
    if (wire) messages.push(inner.has(i) ? withBreakpoint(wire) : wire);
  }
  const last = messages.at(-1);
  if (last && Array.isArray(last.content) && last.content.length > 0)
    messages[messages.length - 1] = withBreakpoint(last);
  const tools: Anthropic.Tool[] = request.tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.input_schema as Anthropic.Tool.InputSchema,
    ...(i === request.tools.length - 1 && !request.system ? { cache_control: CACHE } : {}),
  }));
  return {
    model,
    max_tokens: request.maxTokens,
    messages,
    stream: true,
    ...(request.system ? { system: [{ type: "text", text: request.system, cache_control: CACHE }] } : {}),
    ...(tools.length ? { tools } : {}),
  };
}
