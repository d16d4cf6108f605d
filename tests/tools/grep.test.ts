// The Grep tool: output format, filters, skipped files, caps and errors.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { clipAround, grepTool, MAX_GREP_LINE_CHARS, MAX_GREP_MATCHES } from "../../src/tools/grep.ts";
import { makeContext, tempDir, text, toolError, writeTree } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const grep = (input: Record<string, unknown>, ctx = makeContext(dir)) => grepTool.execute(input as any, ctx);
const out = async (input: Record<string, unknown>) => text(await grep(input));

describe("Grep", () => {
  test("prints path:line:text across a tree", async () => {
    writeTree(dir, { "a.ts": "const x = 1;\nlet y = 2;\n", "src/b.ts": "// nothing\nconst z = 3;\r\n" });
    expect(await out({ pattern: "^const \\w" })).toBe(`${dir}/a.ts:1:const x = 1;\n${dir}/src/b.ts:2:const z = 3;`);
  });

  test("ignore_case, single file path, $ at line end with CRLF", async () => {
    writeTree(dir, { "a.txt": "Hello\r\nhello\r\nworld\r\n" });
    expect(await out({ pattern: "hello$", path: "a.txt" })).toBe(`${dir}/a.txt:2:hello`);
    expect(await out({ pattern: "HELLO", path: "a.txt", ignore_case: true })).toBe(`${dir}/a.txt:1:Hello\n${dir}/a.txt:2:hello`);
  });

  test("does not report the empty line after a final newline", async () => {
    writeTree(dir, { "a.txt": "x\n" });
    expect(await out({ pattern: "^$" })).toBe("No matches found");
  });

  test("glob filters by name, or by path when it has a slash", async () => {
    writeTree(dir, { "a.ts": "hit", "a.js": "hit", "src/b.tsx": "hit", "lib/c.ts": "hit" });
    expect((await out({ pattern: "hit", glob: "*.ts" })).split("\n").sort()).toEqual([`${dir}/a.ts:1:hit`, `${dir}/lib/c.ts:1:hit`]);
    expect((await out({ pattern: "hit", glob: "*.{ts,tsx}" })).split("\n").length).toBe(3);
    expect(await out({ pattern: "hit", glob: "src/**/*.tsx" })).toBe(`${dir}/src/b.tsx:1:hit`);
  });

  test("skips .git, gitignored and binary files", async () => {
    writeTree(dir, {
      ".git/config": "needle",
      ".gitignore": "out/\n",
      "out/x.js": "needle",
      "bin.dat": new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0]),
      "ok.txt": "needle",
    });
    expect(await out({ pattern: "needle" })).toBe(`${dir}/ok.txt:1:needle`);
  });

  test("caps matches with a note and stops early", async () => {
    writeTree(dir, { "many.txt": "m\n".repeat(MAX_GREP_MATCHES + 50) });
    const lines = (await out({ pattern: "m" })).split("\n");
    expect(lines.length).toBe(MAX_GREP_MATCHES + 1);
    expect(lines.at(-1)).toContain(`truncated: showing the first ${MAX_GREP_MATCHES} matches`);
  });

  test("cuts long lines around the match", async () => {
    const line = "a".repeat(1000) + "NEEDLE" + "b".repeat(1000);
    const clipped = clipAround(line, /NEEDLE/);
    expect(clipped).toContain("NEEDLE");
    expect(clipped.length).toBe(MAX_GREP_LINE_CHARS + 2);
    expect(clipAround("short", /s/)).toBe("short");
  });

  test("never cuts an emoji in half around the match", () => {
    for (const pad of ["", "a"]) {
      const line = pad + "😀".repeat(500) + "NEEDLE" + "😀".repeat(500);
      const clipped = clipAround(line, /NEEDLE/);
      expect(clipped).toContain("NEEDLE");
      expect(clipped.isWellFormed()).toBe(true);
    }
  });

  test("FIFOs are never opened: named directly, in a tree, or as a .gitignore", async () => {
    writeTree(dir, { "a.txt": "needle\n", "sub/b.txt": "needle\n" });
    Bun.spawnSync(["mkfifo", `${dir}/fifo`, `${dir}/sub/.gitignore`]);
    expect(await toolError(grep({ pattern: "x", path: "fifo" }))).toBe(
      `Cannot search ${dir}/fifo: it is a FIFO (named pipe), not a regular file`,
    );
    expect(await out({ pattern: "needle" })).toBe(`${dir}/a.txt:1:needle\n${dir}/sub/b.txt:1:needle`);
  }, 2000);

  test("lookbehind patterns still match at line starts", async () => {
    writeTree(dir, { "a.txt": "x\nfoo\n" });
    expect(await out({ pattern: "(?<!\\n)foo" })).toBe(`${dir}/a.txt:2:foo`);
  });

  test("errors: invalid regex, missing path, binary single file, aborted", async () => {
    writeTree(dir, { "b.bin": new Uint8Array([0, 1, 2]) });
    expect(await toolError(grep({ pattern: "(" }))).toStartWith('Invalid regular expression "("');
    expect(await toolError(grep({ pattern: "x", path: "nope" }))).toContain("Path not found");
    expect(await toolError(grep({ pattern: "x", path: "b.bin" }))).toContain("binary file");
    const controller = new AbortController();
    controller.abort();
    expect(await toolError(grep({ pattern: "x" }, makeContext(dir, { signal: controller.signal })))).toContain("interrupted");
  });

  test("no matches", async () => {
    writeTree(dir, { "a.txt": "abc" });
    expect(await out({ pattern: "zzz" })).toBe("No matches found");
  });
});
