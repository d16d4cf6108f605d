// The Grep tool on both engines (ripgrep from node_modules, and the JavaScript fallback): output
// modes, context, filters, ignore rules, caps, clipping, errors, interrupt and timeout.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { open } from "node:fs/promises";
import {
  clipAround,
  grepTool,
  MAX_GREP_FILE_BYTES,
  MAX_GREP_LINE_CHARS,
  MAX_GREP_MATCHES,
} from "../../src/tools/grep.ts";
import { searchEngine, type SearchEngine } from "../../src/tools/search-engine.ts";
import type { ToolContext } from "../../src/tools/types.ts";
import { callError, makeContext, tempDir, text, toolError, writeTree } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const javascript: SearchEngine = { kind: "javascript", reason: "test" };

function contextFor(
  engine: "ripgrep" | "javascript",
  opts: { signal?: AbortSignal; timeoutMs?: number; warn?: (m: string) => void } = {},
): ToolContext {
  const base = makeContext(dir, {
    signal: opts.signal,
    services: engine === "javascript" ? { searchEngine: async () => javascript } : {},
  });
  const limits = opts.timeoutMs
    ? { ...base.limits, shell: { ...base.limits.shell, commandTimeoutMs: opts.timeoutMs } }
    : base.limits;
  return { ...base, limits, warn: opts.warn };
}

test("from source, ripgrep runs from node_modules", async () => {
  const engine = await searchEngine(makeContext(dir).limits.cacheDir);
  expect(engine).toMatchObject({ kind: "ripgrep", version: expect.stringMatching(/^15\./) });
  if (engine.kind === "ripgrep") expect(engine.path).toContain("node_modules/@vscode/ripgrep-");
});

for (const engine of ["ripgrep", "javascript"] as const) {
  describe(`Grep on ${engine}`, () => {
    const grep = (input: Record<string, unknown>, ctx = contextFor(engine)) => grepTool.execute(input as any, ctx);
    const out = async (input: Record<string, unknown>, ctx?: ToolContext) => text(await grep(input, ctx));

    test("files_with_matches by default, in path order", async () => {
      writeTree(dir, { "b.ts": "needle", "a-b/x.ts": "needle", "a/x.ts": "needle", "c.ts": "nothing" });
      expect(await out({ pattern: "needle" })).toBe([`${dir}/a/x.ts`, `${dir}/a-b/x.ts`, `${dir}/b.ts`].join("\n"));
    });

    test("content: path:line:text across a tree", async () => {
      writeTree(dir, { "a.ts": "const x = 1;\nlet y = 2;\n", "src/b.ts": "// nothing\nconst z = 3;\r\n" });
      expect(await out({ pattern: "^const \\w", output_mode: "content" })).toBe(
        `${dir}/a.ts:1:const x = 1;\n${dir}/src/b.ts:2:const z = 3;`,
      );
    });

    test("count: matching lines per file", async () => {
      writeTree(dir, { "a.txt": "x\nx\ny\n", "b.txt": "x\n", "c.txt": "y\n" });
      expect(await out({ pattern: "x", output_mode: "count" })).toBe(`${dir}/a.txt:2\n${dir}/b.txt:1`);
    });

    test("ignore_case and -i, single file path, $ at line end with CRLF", async () => {
      writeTree(dir, { "a.txt": "Hello\r\nhello\r\nworld\r\n" });
      expect(await out({ pattern: "hello$", path: "a.txt", output_mode: "content" })).toBe(`${dir}/a.txt:2:hello`);
      const both = `${dir}/a.txt:1:Hello\n${dir}/a.txt:2:hello`;
      expect(await out({ pattern: "HELLO", path: "a.txt", ignore_case: true, output_mode: "content" })).toBe(both);
      expect(await out({ pattern: "HELLO", path: "a.txt", "-i": true, output_mode: "content" })).toBe(both);
    });

    test("does not report the empty line after a final newline", async () => {
      writeTree(dir, { "a.txt": "x\n" });
      expect(await out({ pattern: "^$" })).toBe("No matches found");
    });

    test("glob filters by name, or by path when it has a slash, and never un-ignores a file", async () => {
      writeTree(dir, {
        "a.ts": "hit",
        "a.js": "hit",
        "src/b.tsx": "hit",
        "lib/c.ts": "hit",
        "lib/ign.ts": "hit",
        ".gitignore": "ign.ts\n",
      });
      expect(await out({ pattern: "hit", glob: "*.ts" })).toBe(`${dir}/a.ts\n${dir}/lib/c.ts`);
      expect((await out({ pattern: "hit", glob: "*.{ts,tsx}" })).split("\n").length).toBe(3);
      expect(await out({ pattern: "hit", glob: "src/**/*.tsx" })).toBe(`${dir}/src/b.tsx`);
      expect(await out({ pattern: "hit", glob: "lib/*" })).toBe(`${dir}/lib/c.ts`);
    });

    test("skips .git, nested gitignores with negations, .git/info/exclude and binary files; searches hidden files", async () => {
      writeTree(dir, {
        ".git/config": "needle",
        ".git/info/exclude": "secret.txt\n",
        ".gitignore": "out/\n*.log\n",
        "out/x.js": "needle",
        "a.log": "needle",
        "pkg/.gitignore": "!keep.log\ngen/\n",
        "pkg/keep.log": "needle",
        "pkg/gen/y.ts": "needle",
        "pkg/secret.txt": "needle",
        ".hidden/h.txt": "needle",
        "bin.dat": new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0]),
        "ok.txt": "needle",
      });
      expect(await out({ pattern: "needle" })).toBe(
        [`${dir}/.hidden/h.txt`, `${dir}/ok.txt`, `${dir}/pkg/keep.log`].join("\n"),
      );
    });

    test("symbolic links are not followed inside a tree", async () => {
      writeTree(dir, { "real/a.txt": "needle", "tree/own.txt": "needle" });
      symlinkSync(`${dir}/real/a.txt`, `${dir}/tree/link.txt`);
      symlinkSync(`${dir}/real`, `${dir}/tree/linkdir`);
      symlinkSync(`${dir}/tree`, `${dir}/tree/loop`);
      expect(await out({ pattern: "needle", path: "tree" })).toBe(`${dir}/tree/own.txt`);
      // Named outright, a link is searched.
      expect(await out({ pattern: "needle", path: "tree/link.txt" })).toBe(`${dir}/tree/link.txt`);
    });

    test("context lines: -A, -B, -C, with -- between groups and files", async () => {
      writeTree(dir, { "a.txt": "1\n2\nhit\n4\n5\n6\n7\nhit\n9\n", "b.txt": "x\nhit\n" });
      expect(await out({ pattern: "hit", output_mode: "content", "-A": 1 })).toBe(
        [
          `${dir}/a.txt:3:hit`,
          `${dir}/a.txt-4-4`,
          "--",
          `${dir}/a.txt:8:hit`,
          `${dir}/a.txt-9-9`,
          "--",
          `${dir}/b.txt:2:hit`,
        ].join("\n"),
      );
      expect(await out({ pattern: "hit", path: "a.txt", output_mode: "content", "-B": 1 })).toBe(
        [`${dir}/a.txt-2-2`, `${dir}/a.txt:3:hit`, "--", `${dir}/a.txt-7-7`, `${dir}/a.txt:8:hit`].join("\n"),
      );
      // Overlapping windows merge; a match inside another's context is still a match.
      expect(await out({ pattern: "hit", path: "a.txt", output_mode: "content", "-C": 3 })).toBe(
        ["1", "2", ":3:hit", "4", "5", "6", "7", ":8:hit", "9"]
          .map((l, i) => (l.startsWith(":") ? `${dir}/a.txt${l}` : `${dir}/a.txt-${i + 1}-${l}`))
          .join("\n"),
      );
    });

    test("caps output at 200 with a note; head_limit lowers it", async () => {
      writeTree(dir, { "many.txt": "m\n".repeat(MAX_GREP_MATCHES + 50) });
      const lines = (await out({ pattern: "m", output_mode: "content" })).split("\n");
      expect(lines.length).toBe(MAX_GREP_MATCHES + 1);
      expect(lines[MAX_GREP_MATCHES - 1]).toBe(`${dir}/many.txt:${MAX_GREP_MATCHES}:m`);
      expect(lines.at(-1)).toBe(
        `(truncated: showing the first ${MAX_GREP_MATCHES} matches; narrow the pattern, path, glob or type, or set head_limit)`,
      );
      const files: Record<string, string> = {};
      for (let i = 0; i < 12; i++) files[`f${i}.txt`] = "m";
      writeTree(dir, files);
      const few = (await out({ pattern: "m", head_limit: 5, glob: "f*.txt" })).split("\n");
      expect(few.length).toBe(6);
      expect(few.at(-1)).toStartWith("(truncated: showing the first 5 files");
    });

    test("long lines are cut around the match on code-point boundaries; invalid UTF-8 shows as U+FFFD", async () => {
      const line = `${"😀".repeat(400)}NEEDLE${"😀".repeat(400)}`;
      writeTree(dir, {
        "long.txt": `${line}\n`,
        "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x4e, 0x45, 0x45, 0x44, 0x4c, 0x45, 0x0a]),
      });
      const [first, second] = (await out({ pattern: "NEEDLE", output_mode: "content" })).split("\n");
      expect(first).toBe(`${dir}/latin1.txt:1:caf\uFFFD NEEDLE`);
      const shown = second!.slice(`${dir}/long.txt:1:`.length);
      expect(shown).toContain("NEEDLE");
      expect(shown.isWellFormed()).toBe(true);
      expect(shown.startsWith("…") && shown.endsWith("…")).toBe(true);
      expect(shown.length).toBeLessThanOrEqual(MAX_GREP_LINE_CHARS + 2);
    });

    test("unicode paths and contents", async () => {
      writeTree(dir, { "données/日本語.txt": "naïve 😀 café\n", "plain.txt": "cafe\n" });
      expect(await out({ pattern: "caf.$", output_mode: "content" })).toBe(
        `${dir}/données/日本語.txt:1:naïve 😀 café\n${dir}/plain.txt:1:cafe`,
      );
      expect(await out({ pattern: "😀" })).toBe(`${dir}/données/日本語.txt`);
    });

    test("files over 10 MB: skipped in a tree, refused when named", async () => {
      writeTree(dir, { "big.txt": `${"x".repeat(MAX_GREP_FILE_BYTES)}\nneedle\n`, "small.txt": "needle\n" });
      expect(await out({ pattern: "needle" })).toBe(`${dir}/small.txt`);
      expect(await toolError(grep({ pattern: "needle", path: "big.txt" }))).toBe(
        `Cannot search ${dir}/big.txt: larger than 10 MB`,
      );
    });

    test("a FIFO named outright is refused without being opened; FIFOs in a tree are skipped", async () => {
      writeTree(dir, { "a.txt": "needle\n", "sub/b.txt": "needle\n" });
      spawnSync("mkfifo", [`${dir}/fifo`, `${dir}/sub/pipe.txt`]);
      expect(await toolError(grep({ pattern: "x", path: "fifo" }))).toBe(
        `Cannot search ${dir}/fifo: it is a FIFO (named pipe), not a regular file`,
      );
      expect(await out({ pattern: "needle", output_mode: "content" })).toBe(
        `${dir}/a.txt:1:needle\n${dir}/sub/b.txt:1:needle`,
      );
    }, 5000);

    test("look-behind patterns match at line starts", async () => {
      writeTree(dir, { "a.txt": "x\nfoo\n" });
      expect(await out({ pattern: "(?<!\\n)foo", output_mode: "content" })).toBe(`${dir}/a.txt:2:foo`);
    });

    test("errors: invalid regex (through the runner), bad numbers, missing path, binary file, aborted", async () => {
      writeTree(dir, { "b.bin": new Uint8Array([0, 1, 2]) });
      expect(await callError(grepTool, { pattern: "(" }, contextFor(engine))).toStartWith(
        'Invalid regular expression "("',
      );
      expect(await toolError(grep({ pattern: "x", head_limit: 0 }))).toBe(
        '"head_limit" must be between 1 and 1000 (got 0)',
      );
      expect(await toolError(grep({ pattern: "x", "-C": 51 }))).toBe('"-C" must be between 0 and 50 (got 51)');
      expect(await toolError(grep({ pattern: "x", path: "nope" }))).toContain("Path not found");
      expect(await toolError(grep({ pattern: "x", path: "b.bin" }))).toContain("binary file");
      const controller = new AbortController();
      controller.abort();
      expect(await toolError(grep({ pattern: "x" }, contextFor(engine, { signal: controller.signal })))).toContain(
        "interrupted",
      );
    });

    test("no matches", async () => {
      writeTree(dir, { "a.txt": "abc" });
      expect(await out({ pattern: "zzz" })).toBe("No matches found");
      expect(await out({ pattern: "zzz", output_mode: "content" })).toBe("No matches found");
    });
  });
}

describe("Grep on ripgrep only", () => {
  const grep = (input: Record<string, unknown>, ctx = contextFor("ripgrep")) => grepTool.execute(input as any, ctx);
  const out = async (input: Record<string, unknown>) => text(await grep(input));

  test("type picks ripgrep file types; an unknown type is an error", async () => {
    writeTree(dir, { "a.ts": "hit", "b.py": "hit", "c.rs": "hit" });
    expect(await out({ pattern: "hit", type: "py" })).toBe(`${dir}/b.py`);
    expect(await out({ pattern: "hit", type: "rust", glob: "*.rs" })).toBe(`${dir}/c.rs`);
    expect(await out({ pattern: "hit", type: "ts", glob: "*.py" })).toBe("No matches found");
    expect(await toolError(grep({ pattern: "hit", type: "nosuchtype" }))).toContain(
      "unrecognized file type: nosuchtype",
    );
  });

  test("multiline: a match spans lines, each shown with its number", async () => {
    writeTree(dir, { "a.ts": "function f(\n  a,\n) {}\nother\n" });
    expect(await out({ pattern: "f\\(.*?\\)", multiline: true, output_mode: "content" })).toBe(
      [`${dir}/a.ts:1:function f(`, `${dir}/a.ts:2:  a,`, `${dir}/a.ts:3:) {}`].join("\n"),
    );
    expect(await out({ pattern: "f\\(.*?\\)", output_mode: "content" })).toBe("No matches found");
  });

  test("interrupt mid-search kills rg", async () => {
    // rg opens every .gitignore it meets; one that is a FIFO holds it mid-search until written to.
    writeTree(dir, { "a.txt": "needle\n", "sub/b.txt": "needle\n" });
    spawnSync("mkfifo", [`${dir}/sub/.gitignore`]);
    const controller = new AbortController();
    const search = grep({ pattern: "needle" }, contextFor("ripgrep", { signal: controller.signal }));
    // Opening the FIFO for writing completes once rg has opened it for reading.
    const writer = await open(`${dir}/sub/.gitignore`, "w");
    controller.abort();
    expect(await toolError(search)).toBe("Grep interrupted");
    // Checked before the FIFO is released: an rg still alive would still be waiting on it.
    const ps = spawnSync("ps", ["-eo", "args"], { encoding: "utf8" }).stdout;
    await writer.close();
    expect(ps.split("\n").filter((l) => l.includes(dir))).toEqual([]);
  }, 10_000);

  test("the command timeout stops a search that hangs", async () => {
    writeTree(dir, { "sub/b.txt": "needle\n" });
    spawnSync("mkfifo", [`${dir}/sub/.gitignore`]);
    expect(await toolError(grep({ pattern: "needle" }, contextFor("ripgrep", { timeoutMs: 200 })))).toBe(
      "Grep stopped after 0.2 s (the command timeout); narrow the path, glob or type",
    );
  }, 10_000);
});

describe("Grep on javascript only", () => {
  test("type and multiline need ripgrep; the fallback is told to the user once", async () => {
    writeTree(dir, { "a.ts": "hit" });
    const warnings: string[] = [];
    const ctx = contextFor("javascript", { warn: (m) => warnings.push(m) });
    expect(await toolError(grepTool.execute({ pattern: "hit", type: "ts" }, ctx))).toBe(
      '"type" needs ripgrep, which cannot run here (test); use glob or a one-line pattern',
    );
    expect(await toolError(grepTool.execute({ pattern: "hit", multiline: true }, ctx))).toStartWith(
      '"multiline" needs ripgrep',
    );
    expect(text(await grepTool.execute({ pattern: "hit" }, ctx))).toBe(`${dir}/a.ts`);
    expect(warnings).toEqual(["Grep and Glob use the slower built-in search: test"]);
  });
});

test("clipAround keeps the match and whole characters", () => {
  const line = `${"a".repeat(1000)}NEEDLE${"b".repeat(1000)}`;
  expect(clipAround(line, /NEEDLE/)).toContain("NEEDLE");
  expect(clipAround(line, 1000)).toContain("NEEDLE");
  expect(clipAround(line, /NEEDLE/).length).toBe(MAX_GREP_LINE_CHARS + 2);
  expect(clipAround("short", /s/)).toBe("short");
  for (const pad of ["", "a"]) {
    const clipped = clipAround(`${pad + "😀".repeat(500)}NEEDLE${"😀".repeat(500)}`, /NEEDLE/);
    expect(clipped).toContain("NEEDLE");
    expect(clipped.isWellFormed()).toBe(true);
  }
});
