// An ACP prompt (text, images, files the editor embeds or links) → the text and image files a
// Synapse submission takes. Embedded files become tagged context in the text; images are written
// to a private temporary folder, since a submission attaches images by path.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { UsageError } from "../protocol/errors.ts";

export interface ComposedPrompt {
  text: string;
  images: string[];
  /** Removes the image files; call once the submission is done. */
  dispose(): Promise<void>;
}

const IMAGE_EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** The text part of a prompt, pure: embedded resources tagged with their URI, links named. */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource_link") parts.push(`[${block.title ?? block.name}](${block.uri})`);
    else if (block.type === "resource") {
      const r = block.resource;
      if ("text" in r) parts.push(`<context uri="${r.uri}">\n${r.text}\n</context>`);
      else parts.push(`[binary resource ${r.uri} (${r.mimeType ?? "unknown type"}) not included]`);
    }
  }
  return parts.join("\n");
}

export async function composePrompt(blocks: readonly ContentBlock[]): Promise<ComposedPrompt> {
  const text = promptText(blocks);
  const images = blocks.filter((b) => b.type === "image");
  if (!images.length) {
    if (!text.trim()) throw new UsageError("empty prompt");
    return { text, images: [], dispose: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), "synapse-acp-"));
  const paths: string[] = [];
  try {
    for (const [i, image] of images.entries()) {
      const ext = IMAGE_EXTENSIONS[image.mimeType];
      if (!ext) throw new UsageError(`image type ${image.mimeType} is not supported (PNG, JPEG, GIF or WebP)`);
      const path = join(dir, `image-${i}.${ext}`);
      await writeFile(path, Buffer.from(image.data, "base64"), { mode: 0o600 });
      paths.push(path);
    }
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    text: text.trim() ? text : "(see the attached image)",
    images: paths,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
