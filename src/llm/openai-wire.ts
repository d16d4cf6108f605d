// Builds an OpenAI Chat Completions request body from our request. Chat Completions has no
// tool_result blocks: each becomes a `role: "tool"` message, and images in tool results (which tool
// messages cannot carry) follow in a user message.

import type OpenAI from "openai";
import type { ImageBlock, Message, TextBlock, ToolResultBlock } from "../protocol/message.ts";
import type { ModelRequest } from "./types.ts";

type WireMessage = OpenAI.ChatCompletionMessageParam;
type UserPart = OpenAI.ChatCompletionContentPartText | OpenAI.ChatCompletionContentPartImage;
type LoadImage = ModelRequest["loadImage"];

async function imagePart(block: ImageBlock, loadImage: LoadImage): Promise<UserPart> {
  const { mediaType, base64 } = await loadImage(block.image);
  return { type: "image_url", image_url: { url: `data:${mediaType};base64,${base64}` } };
}

/** A tool message is text only; its images are returned apart, to travel in a user message. */
function toolMessage(block: ToolResultBlock): { message: WireMessage; images: ImageBlock[] } {
  const parts =
    typeof block.content === "string" ? [{ type: "text", text: block.content } as TextBlock] : block.content;
  const images = parts.filter((p): p is ImageBlock => p.type === "image");
  let text = parts.map((p) => (p.type === "text" ? p.text : "[image: attached in the next message]")).join("\n");
  // Chat Completions has no is_error flag; the model has to read it.
  if (block.is_error) text = `Error: ${text}`;
  return { message: { role: "tool", tool_call_id: block.tool_use_id, content: text }, images };
}

async function userMessage(
  blocks: Array<TextBlock | ImageBlock>,
  loadImage: LoadImage,
): Promise<WireMessage | undefined> {
  const parts: UserPart[] = [];
  for (const block of blocks) {
    if (block.type === "text") {
      if (block.text) parts.push({ type: "text", text: block.text });
    } else {
      parts.push(await imagePart(block, loadImage));
    }
  }
  if (parts.length === 0) return undefined;
  // Plain strings reach every OpenAI-compatible server; content-part arrays only the newer ones.
  if (parts.every((p) => p.type === "text")) {
    return { role: "user", content: parts.map((p) => (p as OpenAI.ChatCompletionContentPartText).text).join("\n") };
  }
  return { role: "user", content: parts };
}

function assistantMessage(message: Message): WireMessage | undefined {
  const text = message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  const toolCalls: OpenAI.ChatCompletionMessageFunctionToolCall[] = [];
  for (const block of message.content) {
    if (block.type !== "tool_use") continue;
    toolCalls.push({
      id: block.id,
      type: "function",
      function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
    });
  }
  if (!text && toolCalls.length === 0) return undefined;
  return { role: "assistant", content: text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
}

export async function toOpenAIMessages(
  system: string,
  messages: Message[],
  loadImage: LoadImage,
): Promise<WireMessage[]> {
  const out: WireMessage[] = system ? [{ role: "system", content: system }] : [];
  for (const message of messages) {
    if (message.role === "assistant") {
      const wire = assistantMessage(message);
      if (wire) out.push(wire);
      continue;
    }
    // Tool messages must directly follow the assistant message that made the calls.
    const rest: Array<TextBlock | ImageBlock> = [];
    const toolImages: ImageBlock[] = [];
    for (const block of message.content) {
      if (block.type === "tool_result") {
        const { message: tool, images } = toolMessage(block);
        out.push(tool);
        toolImages.push(...images);
      } else if (block.type === "text" || block.type === "image") {
        rest.push(block);
      }
    }
    const user = await userMessage([...toolImages, ...rest], loadImage);
    if (user) out.push(user);
  }
  return out;
}

/** Reasoning models (and newer OpenAI models) reject max_tokens; compatible servers know only it. */
function usesCompletionTokens(model: string): boolean {
  return /^(o\d|gpt-5)/.test(model);
}

export async function toOpenAIParams(
  request: ModelRequest,
  model: string,
): Promise<OpenAI.ChatCompletionCreateParamsStreaming> {
  const tools: OpenAI.ChatCompletionFunctionTool[] = request.tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.input_schema as unknown as Record<string, unknown>,
    },
  }));
  return {
    model,
    messages: await toOpenAIMessages(request.system, request.messages, request.loadImage),
    stream: true,
    stream_options: { include_usage: true },
    ...(usesCompletionTokens(model) ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }),
    ...(tools.length ? { tools } : {}),
    ...(request.cacheKey ? { prompt_cache_key: request.cacheKey } : {}),
  };
}
