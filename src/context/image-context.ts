// Which images a request carries: only the newest few go to the model as pictures; older ones
// become a short text placeholder, so a long session does not resend every screenshot.

import type { ContentBlock, ImageBlock, Message, TextBlock } from "../protocol/message.ts";

export function imagePlaceholder(image: ImageBlock["image"]): TextBlock {
  return { type: "text", text: `[image omitted: ${image.sha256.slice(0, 8)}, ${image.mediaType}]` };
}

export interface ImageBudget {
  maxImages: number;
  /** Raw bytes of all images sent; APIs cap a request's size (Anthropic: 32 MB, base64 included). */
  maxBytes: number;
}

/**
 * Returns `messages` with only the newest images that fit the budget (count and bytes) kept, the
 * rest (top-level or inside tool results) replaced by placeholders. Inputs are not modified;
 * untouched messages are returned as is.
 */
export function selectImagesForContext(messages: readonly Message[], budget: ImageBudget): Message[] {
  let count = Math.max(0, Math.floor(budget.maxImages));
  let bytes = Math.max(0, budget.maxBytes);
  // Once one image does not fit, older ones are dropped too: the model sees the newest run.
  const fits = (image: ImageBlock["image"]): boolean => {
    if (count > 0 && image.bytes <= bytes) {
      count--;
      bytes -= image.bytes;
      return true;
    }
    count = 0;
    return false;
  };
  const out = new Array<Message>(messages.length);
  // Newest first, so the budget goes to the most recent images; within a message, last block first.
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!message) continue;
    let changed = false;
    const content = new Array<ContentBlock>(message.content.length);
    for (let j = message.content.length - 1; j >= 0; j--) {
      const block = message.content[j];
      if (!block) continue;
      if (block.type === "image") {
        if (fits(block.image)) {
          content[j] = block;
        } else {
          content[j] = imagePlaceholder(block.image);
          changed = true;
        }
      } else if (block.type === "tool_result" && Array.isArray(block.content)) {
        const inner = block.content.slice();
        let innerChanged = false;
        for (let k = inner.length - 1; k >= 0; k--) {
          const part = inner[k];
          if (part?.type !== "image") continue;
          if (!fits(part.image)) {
            inner[k] = imagePlaceholder(part.image);
            innerChanged = true;
          }
        }
        content[j] = innerChanged ? { ...block, content: inner } : block;
        changed ||= innerChanged;
      } else {
        content[j] = block;
      }
    }
    out[i] = changed ? { ...message, content } : message;
  }
  return out;
}

function* imagesIn(messages: readonly Message[]): Generator<ImageBlock["image"]> {
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === "image") yield b.image;
      else if (b.type === "tool_result" && Array.isArray(b.content)) {
        for (const p of b.content) if (p.type === "image") yield p.image;
      }
    }
  }
}

/** How many image blocks the messages hold (top-level and inside tool results). */
export function countImages(messages: readonly Message[]): number {
  let n = 0;
  for (const _ of imagesIn(messages)) n++;
  return n;
}

/** Raw bytes of the images the messages hold. */
export function imageBytes(messages: readonly Message[]): number {
  let n = 0;
  for (const image of imagesIn(messages)) n += image.bytes;
  return n;
}
