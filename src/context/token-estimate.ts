// Token counts without a tokenizer: characters of the JSON a message becomes, divided by a fixed
// ratio, cached per message object (messages are never changed once appended).

import type { Message } from "../protocol/message.ts";

/**
 * Characters per token. English prose and code run at 3.5–4.5 characters per token on the Claude
 * and GPT tokenizers; the usage each response reports corrects the estimate for what was sent.
 */
export const CHARS_PER_TOKEN = 4;
/**
 * An image counts as Anthropic's cost of a picture scaled to its 1.15-megapixel limit
 * ((width × height) / 750 ≈ 1,600 tokens); smaller images cost less, so this is an upper bound.
 */
export const IMAGE_TOKENS = 1600;

const cache = new WeakMap<Message, number>();

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateMessageTokens(message: Message): number {
  let tokens = cache.get(message);
  if (tokens !== undefined) return tokens;
  let chars = 16; // role and framing
  let images = 0;
  for (const block of message.content) {
    if (block.type === "text") chars += block.text.length + 16;
    else if (block.type === "image") images++;
    else if (block.type === "tool_use")
      chars += JSON.stringify(block.input ?? {}).length + block.name.length + block.id.length + 40;
    else {
      chars += block.tool_use_id.length + 40;
      if (typeof block.content === "string") chars += block.content.length;
      else
        for (const part of block.content) {
          if (part.type === "text") chars += part.text.length + 16;
          else images++;
        }
    }
  }
  tokens = Math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS;
  cache.set(message, tokens);
  return tokens;
}

export function estimateTokens(messages: readonly Message[]): number {
  let sum = 0;
  for (const m of messages) sum += estimateMessageTokens(m);
  return sum;
}
