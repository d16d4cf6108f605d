// The Read tool: numbered windows, caps, encodings, images and errors.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { MAX_LINE_CHARS, MAX_READ_OUTPUT_CHARS, readTool } from "../../src/tools/read.ts";
import { makeContext, recordingImages, tempDir, text, toolError, callError, writeTree } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const read = (input: Record<string, unknown>, ctx = makeContext(dir)) => readTool.execute(input as any, ctx);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

describe("Read", () => {
  test("numbers lines like cat -n, relative to cwd", async () => {
    writeTree(dir, { "src/a.txt": "alpha\nbeta\n" });
    expect(text(await read({ path: "src/a.txt" }))).toBe("     1\talpha\n     2\tbeta");
  });

  test("offset and limit pick a window and say how to read on", async () => {
    writeTree(dir, { "a.txt": Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") });
    const out = text(await read({ path: "a.txt", offset: 3, limit: 2 }));
    expect(out).toBe("     3\tline 3\n     4\tline 4\n… 6 more lines; use offset=5 to read on");
    expect(text(await read({ path: "a.txt", offset: 9 }))).toBe("     9\tline 9\n    10\tline 10");
    expect(text(await read({ path: "a.txt", offset: 0, limit: 1 }))).toStartWith("     1\tline 1\n… 9 more lines");
  });

  test("defaults to 2000 lines", async () => {
    writeTree(dir, { "big.txt": `${Array.from({ length: 2500 }, (_, i) => `${i + 1}`).join("\n")}\n` });
    const out = text(await read({ path: "big.txt" }));
    expect(out.split("\n").length).toBe(2001);
    expect(out).toContain("  2000\t2000\n… 500 more lines; use offset=2001 to read on");
  });

  test("cuts very long lines with a marker", async () => {
    writeTree(dir, { "long.txt": `${"x".repeat(5000)}\nshort\n` });
    const out = text(await read({ path: "long.txt" }));
    expect(out).toContain(`${"x".repeat(2000)}… [line truncated: 5000 chars]`);
    expect(out).not.toContain("x".repeat(2001));
    expect(out).toEndWith("     2\tshort");
  });

  test("caps total output and reports the true length of a huge single line", async () => {
    writeTree(dir, { "wide.txt": Array.from({ length: 100 }, () => "w".repeat(MAX_LINE_CHARS)).join("\n") });
    const out = text(await read({ path: "wide.txt" }));
    expect(out.length).toBeLessThanOrEqual(MAX_READ_OUTPUT_CHARS + 200);
    const shown = Math.floor(MAX_READ_OUTPUT_CHARS / (MAX_LINE_CHARS + 8));
    expect(out).toEndWith(`… ${100 - shown} more lines; use offset=${shown + 1} to read on`);
    writeTree(dir, { "minified.js": `${"m".repeat(1_500_000)}\nend` });
    const mini = text(await read({ path: "minified.js" }));
    expect(mini).toContain("… [line truncated: 1500000 chars]\n     2\tend");
  });

  test("strips CR from CRLF lines and tolerates invalid UTF-8", async () => {
    writeTree(dir, { "crlf.txt": "a\r\nb\r\n", "latin.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    expect(text(await read({ path: "crlf.txt" }))).toBe("     1\ta\n     2\tb");
    expect(text(await read({ path: "latin.txt" }))).toBe("     1\tcaf\uFFFD");
  });

  test("empty file, past-the-end offset", async () => {
    writeTree(dir, { "empty.txt": "", "two.txt": "1\n2\n" });
    expect(text(await read({ path: "empty.txt" }))).toContain("is empty");
    expect(await toolError(read({ path: "two.txt", offset: 5 }))).toContain("past the end");
  });

  test("missing file suggests near names; directory lists entries", async () => {
    writeTree(dir, { "config.json": "{}", "sub/x.ts": "" });
    expect(await toolError(read({ path: "config.jsn" }))).toBe(
      `File not found: ${dir}/config.jsn. Did you mean: ${dir}/config.json?`,
    );
    const msg = await toolError(read({ path: "." }));
    expect(msg).toContain("is a directory");
    expect(msg).toContain("config.json\nsub/");
  });

  test("refuses binary files with their size", async () => {
    writeTree(dir, { "blob.bin": new Uint8Array([1, 0, 2, 3]) });
    expect(await toolError(read({ path: "blob.bin" }))).toBe(`Cannot read ${dir}/blob.bin: binary file (4 bytes)`);
  });

  test("images go through saveImage and come back as an image block", async () => {
    writeTree(dir, { "pic.dat": PNG });
    const { services, saved } = recordingImages();
    const result = await read({ path: "pic.dat" }, makeContext(dir, { services }));
    expect(result.content).toEqual([
      { type: "text", text: `Image: ${dir}/pic.dat (image/png, 16 bytes)` },
      { type: "image", image: { sha256: "f".repeat(64), mediaType: "image/png", bytes: 16 } },
    ]);
    expect(saved[0]!.bytes).toEqual(PNG);
  });

  test("images without saveImage, and oversized images, are clear errors", async () => {
    writeTree(dir, { "pic.png": PNG });
    expect(await toolError(read({ path: "pic.png" }))).toContain("image file (image/png");
    // Over the per-request image budget (10 MiB by default) an image could never be sent.
    const budget = makeContext(dir).limits.maxImageBytes;
    expect(budget).toBe(10 * 1024 * 1024);
    const big = `${dir}/big.png`;
    writeFileSync(big, PNG);
    truncateSync(big, 15 * 1024 * 1024);
    const { services, saved } = recordingImages();
    const msg = await toolError(read({ path: big }, makeContext(dir, { services })));
    expect(msg).toContain(`the image is ${15 * 1024 * 1024} bytes, over the 10 MiB of images one request may carry`);
    expect(msg).toContain("SYNAPSE_CONTEXT_MAX_IMAGE_BYTES");
    expect(saved.length).toBe(0);
    truncateSync(big, budget);
    expect(await read({ path: big }, makeContext(dir, { services }))).toMatchObject({
      content: [{ type: "text" }, { type: "image" }],
    });
  });

  test("long lines are cut between characters and counted in characters", async () => {
    writeTree(dir, { "emoji.txt": `a${"😀".repeat(3000)}\nnext\n` });
    const out = text(await read({ path: "emoji.txt" }));
    expect(out.isWellFormed()).toBe(true);
    expect(out).toContain(`\ta${"😀".repeat(MAX_LINE_CHARS - 1)}… [line truncated: 3001 chars]\n     2\tnext`);
    // Longer than what is held while a line streams in: the count still covers all of it.
    writeTree(dir, { "huge.txt": `${"😀".repeat(700_000)}\nend` });
    const huge = text(await read({ path: "huge.txt" }));
    expect(huge).toBe(`     1\t${"😀".repeat(MAX_LINE_CHARS)}… [line truncated: 700000 chars]\n     2\tend`);
  });

  test.skipIf(!existsSync("/proc/self/status"))("files in /proc that report size 0 are read to the end", async () => {
    const out = text(await read({ path: "/proc/self/status" }));
    expect(out).toStartWith("     1\tName:");
    expect(out).toContain("\tPid:");
  });

  test("a FIFO is refused without being opened; a broken symlink says where it points", async () => {
    Bun.spawnSync(["mkfifo", `${dir}/fifo`]);
    expect(await toolError(read({ path: "fifo" }))).toBe(
      `Cannot read ${dir}/fifo: it is a FIFO (named pipe), not a regular file`,
    );
    symlinkSync("gone.txt", `${dir}/dangling`);
    expect(await toolError(read({ path: "dangling" }))).toBe(
      `${dir}/dangling is a broken symbolic link: it points at gone.txt (${dir}/gone.txt), which does not exist`,
    );
  });

  test("rejects bad input", async () => {
    expect(await callError(readTool, {}, makeContext(dir))).toStartWith('Invalid input for Read: "path" is required');
    expect(await callError(readTool, { path: "a", limit: 0 }, makeContext(dir))).toContain(
      '"limit" must be at least 1',
    );
    expect(await callError(readTool, { path: "a", offset: "2" }, makeContext(dir))).toContain(
      '"offset" must be an integer',
    );
  });
});
