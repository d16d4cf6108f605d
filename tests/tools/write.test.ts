// The Write tool: create vs update, line counting and errors.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { errorText } from "../../src/tools/files.ts";
import { countLines, writeTool } from "../../src/tools/write.ts";
import { makeContext, tempDir, text, toolError, callError, writeTree } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const write = (input: Record<string, unknown>) => writeTool.execute(input as any, makeContext(dir));

describe("countLines", () => {
  const cases: Array<[string, number]> = [
    ["", 0],
    ["a", 1],
    ["a\n", 1],
    ["a\nb", 2],
    ["a\nb\n", 2],
    ["\n", 1],
    ["\n\n", 2],
  ];
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

  test("hands the view the change as a diff of the old file, not every line as new", async () => {
    writeTree(dir, { "d.txt": "a\nb\nc\n" });
    const r = await write({ path: "d.txt", content: "a\nB\nc\n" });
    expect(r.display).toMatchObject({ kind: "diff", path: `${dir}/d.txt`, created: false, added: 1, removed: 1 });
    const created = await write({ path: "n.txt", content: "x\ny\n" });
    expect(created.display).toMatchObject({ kind: "diff", created: true, added: 2, removed: 0 });
  });

  test("writes empty content", async () => {
    expect(text(await write({ path: "e.txt", content: "" }))).toBe(`Created ${dir}/e.txt (0 bytes, 0 lines)`);
  });

  test("refuses a directory and bad input", async () => {
    writeTree(dir, { "d/x": "" });
    expect(await toolError(write({ path: "d", content: "x" }))).toContain("is a directory");
    expect(await callError(writeTool, { path: "f.txt" }, makeContext(dir))).toContain('"content" is required');
    expect(await callError(writeTool, { path: "f.txt", content: 5 }, makeContext(dir))).toContain(
      '"content" must be a string',
    );
  });

  test("a path under a file says which file is in the way", async () => {
    writeTree(dir, { "e.txt": "x" });
    for (const path of ["e.txt/x", "e.txt/deeper/x"]) {
      expect(await toolError(write({ path, content: "x" }))).toBe(
        `Cannot write ${dir}/${path}: ${dir}/e.txt is not a directory`,
      );
    }
  });

  test("refuses a FIFO at once instead of blocking forever, and leaves it alone", async () => {
    Bun.spawnSync(["mkfifo", `${dir}/fifo`]);
    // Opening it for writing would block for ever (past the test's timeout): nobody reads it.
    expect(await toolError(write({ path: "fifo", content: "x" }))).toBe(
      `Cannot write ${dir}/fifo: it is a FIFO (named pipe), not a regular file`,
    );
  });

  test.skipIf(!existsSync("/dev/full"))("refuses a device", async () => {
    expect(await toolError(write({ path: "/dev/full", content: "x" }))).toBe(
      "Cannot write /dev/full: it is a character device, not a regular file",
    );
  });

  test("an fs error names its code once", async () => {
    const err = await writeFile("/dev/full", "x").then(
      () => null,
      (e) => e,
    );
    if (err) expect(errorText(err)).toBe("ENOSPC: no space left on device, write");
    expect(errorText(Object.assign(new Error("disk gone"), { code: "EIO" }))).toBe("EIO: disk gone");
    expect(errorText("plain")).toBe("plain");
  });

  test("never through a symbolic link, dangling or not: the link is named, nothing is written", async () => {
    // `ln -s ~/.ssh/authorized_keys ak` then Write ak would have planted a key.
    symlinkSync("nowhere/target.txt", `${dir}/link`);
    expect(await toolError(write({ path: "link", content: "x" }))).toBe(
      `Cannot write ${dir}/link: it is a symbolic link (to nowhere/target.txt); links are not followed, name the file itself`,
    );
    symlinkSync("made.txt", `${dir}/link2`);
    expect(await toolError(write({ path: "link2", content: "y" }))).toContain("it is a symbolic link (to made.txt)");
    expect(existsSync(`${dir}/made.txt`)).toBe(false);
    writeFileSync(`${dir}/real.txt`, "old");
    symlinkSync("real.txt", `${dir}/link3`);
    expect(await toolError(write({ path: "link3", content: "new" }))).toContain("symbolic link");
    expect(readFileSync(`${dir}/real.txt`, "utf8")).toBe("old");
  });
});
