// The Glob tool on both engines (rg --files, and the JavaScript walk): pattern splitting (table),
// ordering, ignore rules, links, cap and errors.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { symlinkSync, utimesSync } from "node:fs";
import { globTool, MAX_GLOB_RESULTS, NewestFiles, splitPattern } from "../../src/tools/glob.ts";
import type { SearchEngine } from "../../src/tools/search-engine.ts";
import type { ToolContext } from "../../src/tools/types.ts";
import { makeContext, tempDir, text, toolError, writeTree } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const javascript: SearchEngine = { kind: "javascript", reason: "test" };
const contextFor = (engine: "ripgrep" | "javascript", signal?: AbortSignal): ToolContext =>
  makeContext(dir, { signal, services: engine === "javascript" ? { searchEngine: async () => javascript } : {} });

describe("splitPattern", () => {
  const cases: Array<[string, string, string, number | undefined]> = [
    ["**/*.ts", "", "**/*.ts", undefined],
    ["*.ts", "", "*.ts", 0],
    ["src/*.ts", "src", "*.ts", 0],
    ["./src/lib/**/*.ts", "src/lib", "**/*.ts", undefined],
    ["src/*/index.ts", "src", "*/index.ts", 1],
    ["/abs/dir/*.md", "/abs/dir", "*.md", 0],
    ["/*.md", "/", "*.md", 0],
    ["src/index.ts", "src", "index.ts", 0],
  ];
  for (const [pattern, prefix, rest, maxDepth] of cases) {
    test(pattern, () => expect(splitPattern(pattern)).toEqual({ prefix, rest, maxDepth }));
  }
});

describe("NewestFiles", () => {
  test("keeps the newest few, ties by path, counts all", () => {
    const newest = new NewestFiles(3);
    for (const [path, mtime] of [
      ["a", 5],
      ["b", 9],
      ["c", 1],
      ["d", 9],
      ["e", 7],
      ["f", 0],
    ] as const)
      newest.add(path, mtime);
    expect(newest.paths()).toEqual(["b", "d", "e"]);
    expect(newest.total).toBe(6);
  });
});

for (const engine of ["ripgrep", "javascript"] as const) {
  describe(`Glob on ${engine}`, () => {
    const glob = (input: Record<string, unknown>, ctx = contextFor(engine)) => globTool.execute(input as any, ctx);
    const lines = async (input: Record<string, unknown>) => text(await glob(input)).split("\n");

    test("matches recursively, newest first, absolute paths", async () => {
      writeTree(dir, { "a.ts": "", "src/b.ts": "", "src/deep/c.ts": "", "src/d.js": "" });
      utimesSync(`${dir}/a.ts`, 1000, 1000);
      utimesSync(`${dir}/src/b.ts`, 3000, 3000);
      utimesSync(`${dir}/src/deep/c.ts`, 2000, 2000);
      expect(await lines({ pattern: "**/*.ts" })).toEqual([`${dir}/src/b.ts`, `${dir}/src/deep/c.ts`, `${dir}/a.ts`]);
    });

    test("top-level patterns, prefixes, braces and path", async () => {
      writeTree(dir, {
        "a.ts": "",
        "b.tsx": "",
        "src/c.ts": "",
        "src/lib/d.ts": "",
        "src/lib/index.ts": "",
        "src/x/index.ts": "",
      });
      expect((await lines({ pattern: "*.ts" })).sort()).toEqual([`${dir}/a.ts`]);
      expect((await lines({ pattern: "*.{ts,tsx}" })).sort()).toEqual([`${dir}/a.ts`, `${dir}/b.tsx`]);
      expect((await lines({ pattern: "src/**/*.ts" })).sort()).toEqual([
        `${dir}/src/c.ts`,
        `${dir}/src/lib/d.ts`,
        `${dir}/src/lib/index.ts`,
        `${dir}/src/x/index.ts`,
      ]);
      expect((await lines({ pattern: "src/*/index.ts" })).sort()).toEqual([
        `${dir}/src/lib/index.ts`,
        `${dir}/src/x/index.ts`,
      ]);
      expect((await lines({ pattern: "src/**" })).length).toBe(4);
      expect((await lines({ pattern: "*.ts", path: "src" })).sort()).toEqual([`${dir}/src/c.ts`]);
      expect((await lines({ pattern: `${dir}/src/lib/*.ts` })).sort()).toEqual([
        `${dir}/src/lib/d.ts`,
        `${dir}/src/lib/index.ts`,
      ]);
    });

    test("skips .git and gitignored files (nested, negated, info/exclude); hidden files are listed", async () => {
      writeTree(dir, {
        ".git/x.ts": "",
        ".git/info/exclude": "secret.ts\n",
        "node_modules/p/i.ts": "",
        "gen/g.ts": "",
        "k.ts": "",
        ".hid/h.ts": "",
        "pkg/.gitignore": "*.ts\n!keep.ts\n",
        "pkg/keep.ts": "",
        "pkg/drop.ts": "",
        "pkg/secret.ts": "",
        ".gitignore": "gen/\n",
      });
      expect((await lines({ pattern: "**/*.ts" })).sort()).toEqual([
        `${dir}/.hid/h.ts`,
        `${dir}/k.ts`,
        `${dir}/node_modules/p/i.ts`,
        `${dir}/pkg/keep.ts`,
      ]);
      writeTree(dir, { ".gitignore": "gen/\nnode_modules/\n" });
      expect((await lines({ pattern: "**/*.ts" })).sort()).toEqual([
        `${dir}/.hid/h.ts`,
        `${dir}/k.ts`,
        `${dir}/pkg/keep.ts`,
      ]);
      // Naming an ignored directory explicitly still searches it.
      expect(await lines({ pattern: "node_modules/p/*.ts" })).toEqual([`${dir}/node_modules/p/i.ts`]);
    });

    test("symbolic links are not followed; FIFOs are not listed", async () => {
      writeTree(dir, { "real/a.ts": "", "tree/own.ts": "" });
      symlinkSync(`${dir}/real/a.ts`, `${dir}/tree/link.ts`);
      symlinkSync(`${dir}/real`, `${dir}/tree/linkdir`);
      symlinkSync(`${dir}/tree`, `${dir}/tree/loop`);
      spawnSync("mkfifo", [`${dir}/tree/pipe.ts`]);
      expect(await lines({ pattern: "**/*", path: "tree" })).toEqual([`${dir}/tree/own.ts`]);
    }, 5000);

    test("unicode paths", async () => {
      writeTree(dir, { "données/日本語.ts": "", "a.ts": "" });
      expect(await lines({ pattern: "données/*.ts" })).toEqual([`${dir}/données/日本語.ts`]);
      expect(await lines({ pattern: "**/日*" })).toEqual([`${dir}/données/日本語.ts`]);
    });

    test("caps results with a note", async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < MAX_GLOB_RESULTS + 5; i++) files[`f${i}.txt`] = "";
      writeTree(dir, files);
      const out = await lines({ pattern: "*.txt" });
      expect(out.length).toBe(MAX_GLOB_RESULTS + 1);
      expect(out.at(-1)).toBe(
        `(truncated: showing ${MAX_GLOB_RESULTS} of ${MAX_GLOB_RESULTS + 5} files, newest first; use a more specific pattern or path)`,
      );
    });

    test("no match, missing path, file path, aborted", async () => {
      writeTree(dir, { "a.ts": "" });
      expect(text(await glob({ pattern: "*.rs" }))).toBe("No files found");
      expect(await toolError(glob({ pattern: "*", path: "missing" }))).toContain("Directory not found");
      expect(await toolError(glob({ pattern: "*", path: "a.ts" }))).toContain("is a file");
      const controller = new AbortController();
      controller.abort();
      expect(await toolError(glob({ pattern: "*" }, contextFor(engine, controller.signal)))).toContain("interrupted");
    });
  });
}

test("the JavaScript walk never opens a FIFO named .gitignore", async () => {
  writeTree(dir, { "sub/a.ts": "" });
  spawnSync("mkfifo", [`${dir}/sub/.gitignore`]);
  expect(text(await globTool.execute({ pattern: "**/*" }, contextFor("javascript")))).toBe(`${dir}/sub/a.ts`);
}, 5000);
