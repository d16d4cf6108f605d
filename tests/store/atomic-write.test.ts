// The one atomic file replacement the store uses for meta.json and images.
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/store/atomic-write.ts";

const fresh = () => mkdtempSync(join(tmpdir(), "synapse-atomic-"));

test("replaces a file whole, private to the user, and leaves no temp file", async () => {
  const dir = fresh();
  const target = join(dir, "meta.json");
  writeFileSync(target, "old");
  await writeFileAtomic(target, "new text");
  await writeFileAtomic(join(dir, "image.png"), new Uint8Array([1, 2, 3]));
  expect(readFileSync(target, "utf8")).toBe("new text");
  expect([...readFileSync(join(dir, "image.png"))]).toEqual([1, 2, 3]);
  expect(statSync(join(dir, "image.png")).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir).sort()).toEqual(["image.png", "meta.json"]);
});

test("a failed rename throws the file system's error and removes its temp file", async () => {
  const dir = fresh();
  const target = join(dir, "taken");
  // A non-empty directory under the target name: the temp file is written, the rename fails.
  mkdirSync(join(target, "inside"), { recursive: true });
  const err = await writeFileAtomic(target, "x").catch((e) => e);
  expect(err.code).toBe("EISDIR");
  expect(readdirSync(dir)).toEqual(["taken"]);
});

test.skipIf(process.getuid?.() === 0)("an unwritable folder: the open fails and nothing is left", async () => {
  const dir = fresh();
  chmodSync(dir, 0o500);
  const err = await writeFileAtomic(join(dir, "f"), "x").catch((e) => e);
  expect(err.code).toBe("EACCES");
  chmodSync(dir, 0o700);
  expect(readdirSync(dir)).toEqual([]);
});
