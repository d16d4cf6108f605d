// An MCP tool's result as a tool result the model reads: text as is, images into the session's
// image store (like Read's), resources and resource links as text with their URI,
// `structuredContent` as JSON when there is nothing else, `isError` as is_error; all text bounded.

import type { ImageBlock, ImageRef, TextBlock } from "../protocol/message.ts";
import { headUnits } from "../text/code-point.ts";
import { imageMediaType } from "../text/binary.ts";
import type { ToolResult } from "../tools/types.ts";

/** What a result may carry and how; `maxChars` bounds its text (about 4 characters a token). */
export interface ResultLimits {
  maxChars: number;
  maxImageBytes: number;
  /** Named in the note when the text was cut. */
  limitName: string;
  saveImage?(bytes: Uint8Array, mediaType: string): Promise<ImageRef>;
}

type Item = Record<string, unknown> & { type?: unknown };

function resourceText(resource: Record<string, unknown>): string {
  const uri = String(resource.uri ?? "");
  const mime = typeof resource.mimeType === "string" ? ` (${resource.mimeType})` : "";
  if (typeof resource.text === "string") return `Resource ${uri}${mime}:\n${resource.text}`;
  if (typeof resource.blob === "string") {
    return `Resource ${uri}${mime}: binary, ${Math.floor((resource.blob.length * 3) / 4)} bytes (not shown)`;
  }
  return `Resource ${uri}${mime}`;
}

async function imageBlock(item: Item, limits: ResultLimits): Promise<TextBlock | ImageBlock> {
  const data = typeof item.data === "string" ? item.data : "";
  const bytes = Uint8Array.from(Buffer.from(data, "base64"));
  const mediaType = imageMediaType(bytes);
  const note = (text: string): TextBlock => ({ type: "text", text });
  if (!mediaType) return note(`[image of type ${String(item.mimeType)} that is not PNG, JPEG, GIF or WebP: not shown]`);
  const about = `image (${mediaType}, ${bytes.length} bytes)`;
  if (!limits.saveImage) return note(`[${about}: images cannot be shown here]`);
  if (bytes.length > limits.maxImageBytes) {
    return note(`[${about}: over the ${limits.maxImageBytes} bytes of images one request may carry]`);
  }
  return { type: "image", image: await limits.saveImage(bytes, mediaType) };
}

async function block(item: Item, limits: ResultLimits): Promise<TextBlock | ImageBlock> {
  switch (item.type) {
    case "text":
      return { type: "text", text: String(item.text ?? "") };
    case "image":
      return imageBlock(item, limits);
    case "audio":
      return { type: "text", text: `[audio (${String(item.mimeType)}): not shown]` };
    case "resource_link": {
      const about = [item.name, item.description].filter((s) => typeof s === "string" && s).join(": ");
      return { type: "text", text: `Resource link ${String(item.uri ?? "")}${about ? ` (${about})` : ""}` };
    }
    case "resource":
      return { type: "text", text: resourceText((item.resource ?? {}) as Record<string, unknown>) };
    default:
      return { type: "text", text: `[content of type ${JSON.stringify(item.type)}: not shown]` };
  }
}

/** Cuts the text blocks, in order, to `maxChars` in all, with one note saying so. */
function bound(blocks: Array<TextBlock | ImageBlock>, limits: ResultLimits): Array<TextBlock | ImageBlock> {
  let left = limits.maxChars;
  let total = 0;
  const out: Array<TextBlock | ImageBlock> = [];
  for (const b of blocks) {
    if (b.type !== "text") {
      out.push(b);
      continue;
    }
    total += b.text.length;
    if (left <= 0) continue;
    const text = b.text.length > left ? headUnits(b.text, left) : b.text;
    left -= text.length;
    out.push({ type: "text", text });
  }
  if (total > limits.maxChars) {
    const note = `\n[output cut: ${total} characters, over the limit of ${limits.maxChars} (${limits.limitName})]`;
    out.push({ type: "text", text: note });
  }
  return out;
}

export async function mcpToolResult(result: Record<string, unknown>, limits: ResultLimits): Promise<ToolResult> {
  const items = Array.isArray(result.content) ? (result.content as Item[]) : [];
  const blocks: Array<TextBlock | ImageBlock> = [];
  for (const item of items) blocks.push(await block(item, limits));
  // Servers that return structured content also put it in a text block (the spec's advice); shown
  // alone only when it is all there is, so the model does not read it twice.
  if (result.structuredContent !== undefined && !blocks.some((b) => b.type === "text")) {
    blocks.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
  }
  if (!blocks.length) blocks.push({ type: "text", text: "(no output)" });
  const bounded = bound(blocks, limits);
  const onlyText = bounded.every((b) => b.type === "text");
  const content = onlyText ? bounded.map((b) => (b as TextBlock).text).join("\n") : bounded;
  return {
    content,
    ...(result.isError === true ? { isError: true } : {}),
    ...hookFacts(result.structuredContent),
  };
}

/**
 * PostToolUse hooks get the server's structured result, as Claude Code passes it on, beside the
 * text the model got: that text keeps the name `content` (hook scripts read it).
 */
function hookFacts(structured: unknown): { hookResponse?: Record<string, unknown> } {
  if (!structured || typeof structured !== "object" || Array.isArray(structured)) return {};
  const fields = Object.entries(structured).filter(([key]) => key !== "content" && key !== "is_error");
  return { hookResponse: Object.fromEntries(fields) };
}
