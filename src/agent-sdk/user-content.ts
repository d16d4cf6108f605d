// A user line's content (text, base64 images) → the text and image files a submission takes.
// Images go to a private temporary folder, removed once the turn is done: a submission attaches
// images by path.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UserBlock } from "./sdk-lines.ts";

export interface TurnInput {
  text: string;
  images: string[];
  /** Removes the image files; call once the turn is done. */
  dispose(): Promise<void>;
}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** Throws (a plain Error: the line is refused with its message) on an image type the models do not take. */
export async function turnInput(content: string | UserBlock[]): Promise<TurnInput> {
  if (typeof content === "string") return { text: content, images: [], dispose: async () => {} };
  const text = content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
  const images = content.flatMap((b) => (b.type === "image" ? [b.source] : []));
  if (!images.length) return { text, images: [], dispose: async () => {} };
  for (const image of images)
    if (!EXTENSIONS[image.media_type])
      throw new Error(`image type ${image.media_type} is not supported (PNG, JPEG, GIF or WebP)`);
  const dir = await mkdtemp(join(tmpdir(), "synapse-sdk-"));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const paths: string[] = [];
    for (const [i, image] of images.entries()) {
      const path = join(dir, `image-${i}.${EXTENSIONS[image.media_type]}`);
      await writeFile(path, Buffer.from(image.data, "base64"), { mode: 0o600 });
      paths.push(path);
    }
    return { text: text.trim() ? text : "(see the attached image)", images: paths, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
