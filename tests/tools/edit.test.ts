// The Edit tool: exact replacement, ambiguity and miss messages, CRLF and BOM kept, file creation.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { applyEdit, editTool } from "../../src/tools/edit.ts";
import { ToolError } from "../../src/tools/types.ts";
import { makeContext, tempDir, text, toolError, callError, writeTree } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const edit = (input: Record<string, unknown>) => editTool.execute(input as any, makeContext(dir));
const file = (rel: string) => readFileSync(`${dir}/${rel}`, "utf8");

describe("applyEdit", () => {
  // [name, content, old, new, replaceAll, what must happen: the new content, or an error containing the text]
  type Outcome = { content: string } | { error: string };
  const ok = (content: string): Outcome => ({ content });
  const fails = (error: string): Outcome => ({ error });
  const cases: Array<[string, string, string, string, boolean, Outcome]> = [
    ["single", "a b c", "b", "B", false, ok("a B c")],
    ["replace all", "x x x", "x", "y", true, ok("y y y")],
    ["dollar patterns stay literal", "a b", "b", "$&$1$$", false, ok("a $&$1$$")],
    ["delete", "keep drop keep", " drop", "", false, ok("keep keep")],
    ["crlf file, lf strings", "a\r\nb\r\nc\r\n", "a\nb", "a\nx\ny", false, ok("a\r\nx\r\ny\r\nc\r\n")],
    ["lf file, crlf strings", "a\nb\nc\n", "a\r\nb", "z\r\nb", false, ok("z\nb\nc\n")],
    ["crlf file, single line, multi-line new", "a\r\nb\r\n", "b", "b1\nb2", false, ok("a\r\nb1\r\nb2\r\n")],
    ["ambiguous", "x\ny\nx\n", "x", "z", false, fails("matches 2 times")],
    ["ambiguous lists lines", "x\ny\nx\n", "x", "z", false, fails("at lines 1, 3")],
    ["missing", "abc", "xyz", "q", false, fails("old_string was not found")],
    [
      "whitespace hint",
      "  if (a) {\n    go();\n  }",
      "if (a) {\n  go();\n}",
      "q",
      false,
      fails("match when whitespace is ignored (its first line is at line 1)"),
    ],
    ["first line hint", "one\n  two\nthree", "two\nfour", "q", false, fails("first line appears at line 2")],
    ["line-number prefix hint", "alpha\nbeta", "     1\talpha", "q", false, fails("line-number prefixes")],
  ];
  for (const [name, content, o, n, all, outcome] of cases) {
    test(name, () => {
      // A row that expects an error fails if applyEdit returns, and one that expects content fails if it throws.
      if ("error" in outcome) {
        expect(() => applyEdit(content, o, n, all)).toThrow(ToolError);
        expect(() => applyEdit(content, o, n, all)).toThrow(outcome.error);
      } else {
        expect(applyEdit(content, o, n, all).content).toBe(outcome.content);
      }
    });
  }

  test("counts replacements", () => {
    expect(applyEdit("a a a b", "a", "c", true).count).toBe(3);
  });
});

describe("Edit", () => {
  test("replaces and shows a numbered snippet", async () => {
    writeTree(dir, { "f.ts": "1\n2\n3\n4\n5\n6\n7\n8\n9\n" });
    const out = text(await edit({ path: "f.ts", old_string: "5", new_string: "five" }));
    expect(out).toBe(
      `Edited ${dir}/f.ts: 1 replacement\n     2\t2\n     3\t3\n     4\t4\n     5\tfive\n     6\t6\n     7\t7\n     8\t8`,
    );
    expect(file("f.ts")).toBe("1\n2\n3\n4\nfive\n6\n7\n8\n9\n");
  });

  test("hands the view the change as hunks with line numbers and context", async () => {
    writeTree(dir, { "g.ts": "1\n2\n3\n4\n5\n6\n7\n8\n9\n" });
    const r = await edit({ path: "g.ts", old_string: "5", new_string: "five" });
    expect(r.display).toEqual({
      kind: "diff",
      path: `${dir}/g.ts`,
      created: false,
      added: 1,
      removed: 1,
      hunks: [
        {
          lines: [
            { op: " ", text: "2", old: 2, new: 2 },
            { op: " ", text: "3", old: 3, new: 3 },
            { op: " ", text: "4", old: 4, new: 4 },
            { op: "-", text: "5", old: 5 },
            { op: "+", text: "five", new: 5 },
            { op: " ", text: "6", old: 6, new: 6 },
            { op: " ", text: "7", old: 7, new: 7 },
            { op: " ", text: "8", old: 8, new: 8 },
          ],
        },
      ],
    });
  });

  test("replace_all reports the count", async () => {
    writeTree(dir, { "f.ts": "foo(); foo();\nfoo();\n" });
    expect(text(await edit({ path: "f.ts", old_string: "foo", new_string: "bar", replace_all: true }))).toStartWith(
      `Edited ${dir}/f.ts: 3 replacements (first shown)`,
    );
    expect(file("f.ts")).toBe("bar(); bar();\nbar();\n");
  });

  test("refuses ambiguous, missing, identical", async () => {
    writeTree(dir, { "f.ts": "x\nx\n" });
    expect(await toolError(edit({ path: "f.ts", old_string: "x", new_string: "y" }))).toContain("matches 2 times");
    expect(await toolError(edit({ path: "f.ts", old_string: "q", new_string: "y" }))).toContain("not found");
    expect(await toolError(edit({ path: "f.ts", old_string: "x", new_string: "x" }))).toContain("identical");
    expect(file("f.ts")).toBe("x\nx\n");
  });

  test("keeps CRLF endings and a BOM", async () => {
    writeTree(dir, { "win.txt": "\uFEFFone\r\ntwo\r\nthree\r\n" });
    await edit({ path: "win.txt", old_string: "one\ntwo", new_string: "one\nTWO\nextra" });
    expect(file("win.txt")).toBe("\uFEFFone\r\nTWO\r\nextra\r\nthree\r\n");
  });

  test("missing file: error, unless old_string is empty (then it creates it)", async () => {
    expect(await toolError(edit({ path: "nope.ts", old_string: "a", new_string: "b" }))).toContain("File not found");
    expect(text(await edit({ path: "new/dir/n.ts", old_string: "", new_string: "hi\n" }))).toBe(
      `Created ${dir}/new/dir/n.ts (3 bytes)`,
    );
    expect(file("new/dir/n.ts")).toBe("hi\n");
  });

  test("empty old_string fills an empty file but refuses a non-empty one", async () => {
    writeTree(dir, { "empty.ts": "", "full.ts": "x" });
    await edit({ path: "empty.ts", old_string: "", new_string: "body" });
    expect(file("empty.ts")).toBe("body");
    expect(await toolError(edit({ path: "full.ts", old_string: "", new_string: "y" }))).toContain(
      "already has content",
    );
  });

  test("refuses binary and non-UTF-8 files without touching them", async () => {
    writeTree(dir, { "b.bin": new Uint8Array([0x61, 0, 0x62]), "l.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9]) });
    expect(await toolError(edit({ path: "b.bin", old_string: "a", new_string: "c" }))).toContain("binary file");
    expect(await toolError(edit({ path: "l.txt", old_string: "ca", new_string: "co" }))).toContain("not valid UTF-8");
    expect(readFileSync(`${dir}/l.txt`)).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  });

  test("refuses a FIFO without opening it, and a path under a file", async () => {
    Bun.spawnSync(["mkfifo", `${dir}/fifo`]);
    expect(await toolError(edit({ path: "fifo", old_string: "a", new_string: "b" }))).toBe(
      `Cannot edit ${dir}/fifo: it is a FIFO (named pipe), not a regular file`,
    );
    writeTree(dir, { "e.txt": "x" });
    expect(await toolError(edit({ path: "e.txt/n.ts", old_string: "", new_string: "hi" }))).toBe(
      `Cannot create ${dir}/e.txt/n.ts: ${dir}/e.txt is not a directory`,
    );
  }, 2000);

  test("rejects bad input", async () => {
    expect(await callError(editTool, { path: "f.ts", old_string: "a" }, makeContext(dir))).toContain(
      '"new_string" is required',
    );
    expect(
      await callError(
        editTool,
        { path: "f.ts", old_string: "a", new_string: "b", replace_all: "yes" },
        makeContext(dir),
      ),
    ).toContain('"replace_all" must be a boolean');
  });
});
