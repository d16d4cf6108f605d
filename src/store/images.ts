// Images on disk, content-addressed by SHA-256 under the session (`images/<sha>.<ext>`): saved
// once however often they are attached, and read back only when a request needs their bytes.

import { chmod, mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ImageRef } from "../protocol/message.ts";
import { sha256Hex } from "../runtime/portable.ts";
import { writeFileAtomic } from "./atomic-write.ts";
import { storeError } from "./errors.ts";

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "image/bmp": "bmp",
};
const SHA256 = /^[0-9a-f]{64}$/;

export function imageExtension(mediaType: string): string {
  return EXTENSIONS[mediaType.toLowerCase()] ?? "bin";
}

export class ImageStore {
  private dirReady = false;

  constructor(readonly dir: string) {}

  pathOf(ref: Pick<ImageRef, "sha256" | "mediaType">): string {
    // A ref can come from a hand-edited archive: never let it name a path outside the folder.
    if (!SHA256.test(ref.sha256)) throw new Error(`not an image hash: ${JSON.stringify(ref.sha256)}`);
    return join(this.dir, `${ref.sha256}.${imageExtension(ref.mediaType)}`);
  }

  async save(bytes: Uint8Array, mediaType: string): Promise<ImageRef> {
    const sha256 = await sha256Hex(bytes);
    const ref: ImageRef = { sha256, mediaType, bytes: bytes.byteLength };
    const path = this.pathOf(ref);
    const existing = await stat(path).catch(() => undefined);
    if (existing?.size === bytes.byteLength) return ref;
    await this.ensureDir();
    // A crash never leaves a half image under its final (trusted) name.
    await writeFileAtomic(path, bytes).catch((err) => {
      throw storeError("save image", path, err);
    });
    return ref;
  }

  /** Reads the bytes now; nothing is cached, so the caller holds them only as long as it needs. */
  async load(ref: ImageRef): Promise<{ mediaType: string; base64: string }> {
    const path = this.pathOf(ref);
    try {
      const bytes = await readFile(path);
      return { mediaType: ref.mediaType, base64: bytes.toString("base64") };
    } catch (err) {
      throw storeError("read image", path, err);
    }
  }

  private async ensureDir(): Promise<void> {
    if (this.dirReady) return;
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await chmod(this.dir, 0o700);
    } catch (err) {
      throw storeError("create image folder", this.dir, err);
    }
    this.dirReady = true;
  }
}
