// Which images a request carries: only the newest few go to the model as pictures; older ones
// become a short text placeholder, so a long session does not resend every screenshot.

import type { ContentBlock, ImageBlock, Message, TextBlock } from "../protocol/message.ts";

export function imagePlaceholder(image: ImageBlock["image"]): TextBlock {
  return { type: "text", text: `[image omitted: ${image.sha256.slice(0, 8)}, ${image.mediaType}]` };
}

/**
 * Returns `messages` with all but the newest `maxImages` image blocks (top-level or inside tool
 * results) replaced by placeholders. Inputs are not modified; untouched messages are returned as is.
 */
export function selectImagesForContext(messages: readonly Message[], maxImages: number): Message[] {
  let keep = Math.max(0, Math.floor(maxImages));
  const out = new Array<Message>(messages.length);
  // Newest first, so the budget goes to the most recent images; within a message, last block first.
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    let changed = false;
    const content = new Array<ContentBlock>(message.content.length);
    for (let j = message.content.length - 1; j >= 0; j--) {
      const block = message.content[j]!;
      if (block.type === "image") {
        if (keep > 0) {
          keep--;
          content[j] = block;
        } else {
          content[j] = imagePlaceholder(block.image);
          changed = true;
        }
      } else if (block.type === "tool_result" && Array.isArray(block.content)) {
        const inner = block.content.slice();
        let innerChanged = false;
        for (let k = inner.length - 1; k >= 0; k--) {
          const part = inner[k]!;
          if (part.type !== "image") continue;
          if (keep > 0) keep--;
          else {
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

/** How many image blocks the messages hold (top-level and inside tool results). */
export function countImages(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === "image") n++;
      else if (b.type === "tool_result" && Array.isArray(b.content)) n += b.content.filter((p) => p.type === "image").length;
    }
  }
  return n;
}
