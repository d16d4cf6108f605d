// Images: content-addressed storage on disk, and which images a request carries.
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ImageRef, Message } from "../../src/protocol/message.ts";
import { countImages, imageBytes, selectImagesForContext } from "../../src/context/image-context.ts";
import { openSession } from "../../src/store/session.ts";
import { removeTempHomes, storeConfig, tempHome } from "./helpers.ts";

afterAll(removeTempHomes);

const ref = (n: number, mediaType = "image/png"): ImageRef => ({
  sha256: String(n).repeat(64).slice(0, 64),
  mediaType,
  bytes: 10,
});
const imageMsg = (id: string, ...ns: number[]): Message => ({
  id,
  role: "user",
  ts: 0,
  content: [{ type: "text", text: id }, ...ns.map((n) => ({ type: "image" as const, image: ref(n) }))],
});

describe("images on disk", () => {
  test("saved once, content-addressed by SHA-256, loaded on demand", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: () => {} });
    const bytes = new Uint8Array(10_000).map((_, i) => (i * 7) % 256);
    const sha = createHash("sha256").update(bytes).digest("hex");
    const a = await store.saveImage(bytes, "image/png");
    const b = await store.saveImage(bytes.slice(), "image/png");
    const c = await store.saveImage(new Uint8Array([1, 2, 3]), "image/jpeg");
    expect(a).toEqual({ sha256: sha, mediaType: "image/png", bytes: 10_000 });
    expect(b).toEqual(a);
    const files = readdirSync(join(store.dir, "images")).sort();
    expect(files).toEqual([`${c.sha256}.jpg`, `${sha}.png`].sort());
    expect(readFileSync(join(store.dir, "images", `${sha}.png`)).equals(Buffer.from(bytes))).toBe(true);
    const loaded = await store.loadImage(a);
    expect(loaded.mediaType).toBe("image/png");
    expect(Buffer.from(loaded.base64, "base64").equals(Buffer.from(bytes))).toBe(true);
    // A ref from a hand-edited archive cannot reach outside the images folder.
    await expect(store.loadImage({ sha256: "../../meta", mediaType: "image/png", bytes: 1 })).rejects.toThrow(
      /not an image hash/,
    );
    store.append({ id: "x", role: "user", ts: 0, content: [{ type: "image", image: a }] });
    await store.close();
  });
});

describe("selectImagesForContext", () => {
  test("keeps the newest N images and replaces older ones with a placeholder", () => {
    const messages = [imageMsg("a", 1, 2), imageMsg("b", 3), imageMsg("c", 4, 5)];
    const out = selectImagesForContext(messages, { maxImages: 3, maxBytes: Infinity });
    expect(countImages(out)).toBe(3);
    expect(out[0]!.content).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "[image omitted: 11111111, image/png]" },
      { type: "text", text: "[image omitted: 22222222, image/png]" },
    ]);
    expect(out[1]).toBe(messages[1]!);
    expect(out[2]).toBe(messages[2]!);
    // Inputs untouched.
    expect(countImages(messages)).toBe(5);
  });

  // Each image is 10 bytes.
  const table: Array<[string, number, number, number]> = [
    ["zero keeps none", 0, Infinity, 0],
    ["more than present keeps all", 10, Infinity, 5],
    ["exact keeps all", 5, Infinity, 5],
    ["one keeps the newest", 1, Infinity, 1],
    ["byte budget for two", 10, 25, 2],
    ["byte budget exact", 10, 30, 3],
    ["byte budget below one image", 10, 9, 0],
    ["byte budget for one, count allows more", 5, 10, 1],
  ];
  for (const [name, max, maxBytes, kept] of table) {
    test(name, () => {
      const messages = [imageMsg("a", 1, 2), imageMsg("b", 3), imageMsg("c", 4, 5)];
      const out = selectImagesForContext(messages, { maxImages: max, maxBytes });
      expect(countImages(out)).toBe(kept);
      expect(imageBytes(out)).toBe(kept * 10);
      expect(out.length).toBe(3);
      if (kept === 1) expect(out[2]!.content[2]).toEqual({ type: "image", image: ref(5) });
    });
  }

  test("images inside tool results count too", () => {
    const messages: Message[] = [
      {
        id: "t",
        role: "user",
        ts: 0,
        content: [
          {
            type: "tool_result",
            tool_use_id: "x",
            content: [
              { type: "image", image: ref(7, "image/webp") },
              { type: "text", text: "shot" },
            ],
          },
        ],
      },
      imageMsg("n", 8),
    ];
    const out = selectImagesForContext(messages, { maxImages: 1, maxBytes: Infinity });
    const result = out[0]!.content[0]!;
    expect(result.type === "tool_result" && result.content).toEqual([
      { type: "text", text: "[image omitted: 77777777, image/webp]" },
      { type: "text", text: "shot" },
    ]);
    expect(out[1]).toBe(messages[1]!);
    const original = messages[0]!.content[0]!;
    expect(original.type === "tool_result" && Array.isArray(original.content) && original.content[0]!.type).toBe(
      "image",
    );
  });
});
