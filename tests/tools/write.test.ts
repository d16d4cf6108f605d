// The Write tool: create vs update, line counting and errors.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { countLines, writeTool } from "../../src/tools/write.ts";
import { makeContext, tempDir, text, toolError, callError, writeTree } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const write = (input: Record<string, unknown>) => writeTool.execute(input as any, makeContext(dir));

describe("countLines", () => {
  const cases: Array<[string, number]> = [["", 0], ["a", 1], ["a\n", 1], ["a\nb", 2], ["a\nb\n", 2], ["\n", 1], ["\n\n", 2]];
  for (const [input, expected] of cases) test(JSON.stringify(input), () => expect(countLines(input)).toBe(expected));
});

describe("Write", () => {
  test("creates parent directories and reports created", async () => {
    const out = text(await write({ path: "a/b/c.txt", content: "héllo\nworld\n" }));
    expect(out).toBe(`Created ${dir}/a/b/c.txt (13 bytes, 2 lines)`);
    expect(readFileSync(`${dir}/a/b/c.txt`, "utf8")).toBe("héllo\nworld\n");
  });

  test("overwrites and reports updated", async () => {
    writeTree(dir, { "f.txt": "old content that is longer" });
    expect(text(await write({ path: "f.txt", content: "new" }))).toBe(`Updated ${dir}/f.txt (3 bytes, 1 line)`);
    expect(readFileSync(`${dir}/f.txt`, "utf8")).toBe("new");
  });

  test("writes empty content", async () => {
    expect(text(await write({ path: "e.txt", content: "" }))).toBe(`Created ${dir}/e.txt (0 bytes, 0 lines)`);
  });

  test("refuses a directory and bad input", async () => {
    writeTree(dir, { "d/x": "" });
    expect(await toolError(write({ path: "d", content: "x" }))).toContain("is a directory");
    expect(await callError(writeTool, { path: "f.txt" }, makeContext(dir))).toContain('"content" is required');
    expect(await callError(writeTool, { path: "f.txt", content: 5 }, makeContext(dir))).toContain('"content" must be a string');
  });

  test("reports a path under a file as an error", async () => {
    writeTree(dir, { "file": "x" });
    expect(await toolError(write({ path: "file/inner.txt", content: "x" }))).toStartWith(`Cannot write ${dir}/file/inner.txt:`);
  });
});
