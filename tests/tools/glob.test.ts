// The Glob tool: pattern splitting (table), ordering, ignore rules, cap and errors.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { utimesSync } from "node:fs";
import { globTool, MAX_GLOB_RESULTS, splitPattern } from "../../src/tools/glob.ts";
import { makeContext, tempDir, text, toolError, writeTree } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const glob = (input: Record<string, unknown>, ctx = makeContext(dir)) => globTool.execute(input as any, ctx);
const lines = async (input: Record<string, unknown>) => text(await glob(input)).split("\n");

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

describe("Glob", () => {
  test("matches recursively, newest first, absolute paths", async () => {
    writeTree(dir, { "a.ts": "", "src/b.ts": "", "src/deep/c.ts": "", "src/d.js": "" });
    utimesSync(`${dir}/a.ts`, 1000, 1000);
    utimesSync(`${dir}/src/b.ts`, 3000, 3000);
    utimesSync(`${dir}/src/deep/c.ts`, 2000, 2000);
    expect(await lines({ pattern: "**/*.ts" })).toEqual([`${dir}/src/b.ts`, `${dir}/src/deep/c.ts`, `${dir}/a.ts`]);
  });

  test("top-level patterns, prefixes, braces and path", async () => {
    writeTree(dir, { "a.ts": "", "b.tsx": "", "src/c.ts": "", "src/lib/d.ts": "" });
    expect((await lines({ pattern: "*.ts" })).sort()).toEqual([`${dir}/a.ts`]);
    expect((await lines({ pattern: "*.{ts,tsx}" })).sort()).toEqual([`${dir}/a.ts`, `${dir}/b.tsx`]);
    expect((await lines({ pattern: "src/**/*.ts" })).sort()).toEqual([`${dir}/src/c.ts`, `${dir}/src/lib/d.ts`]);
    expect((await lines({ pattern: "*.ts", path: "src" })).sort()).toEqual([`${dir}/src/c.ts`]);
    expect((await lines({ pattern: `${dir}/src/lib/*.ts` })).sort()).toEqual([`${dir}/src/lib/d.ts`]);
  });

  test("skips .git and gitignored files; node_modules only when ignored", async () => {
    writeTree(dir, { ".git/x.ts": "", "node_modules/p/i.ts": "", "gen/g.ts": "", "k.ts": "", ".gitignore": "gen/\n" });
    expect((await lines({ pattern: "**/*.ts" })).sort()).toEqual([`${dir}/k.ts`, `${dir}/node_modules/p/i.ts`]);
    writeTree(dir, { ".gitignore": "gen/\nnode_modules/\n" });
    expect(await lines({ pattern: "**/*.ts" })).toEqual([`${dir}/k.ts`]);
    // Naming an ignored directory explicitly still searches it.
    expect(await lines({ pattern: "node_modules/p/*.ts" })).toEqual([`${dir}/node_modules/p/i.ts`]);
  });

  test("FIFOs are neither listed nor opened, even one named .gitignore", async () => {
    writeTree(dir, { "sub/a.ts": "" });
    Bun.spawnSync(["mkfifo", `${dir}/pipe.ts`, `${dir}/sub/.gitignore`]);
    expect(await lines({ pattern: "**/*" })).toEqual([`${dir}/sub/a.ts`]);
  }, 2000);

  test("caps results with a note", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < MAX_GLOB_RESULTS + 5; i++) files[`f${i}.txt`] = "";
    writeTree(dir, files);
    const out = await lines({ pattern: "*.txt" });
    expect(out.length).toBe(MAX_GLOB_RESULTS + 1);
    expect(out.at(-1)).toBe(`(truncated: showing ${MAX_GLOB_RESULTS} of ${MAX_GLOB_RESULTS + 5} files, newest first; use a more specific pattern or path)`);
  });

  test("no match, missing path, file path, aborted", async () => {
    writeTree(dir, { "a.ts": "" });
    expect(text(await glob({ pattern: "*.rs" }))).toBe("No files found");
    expect(await toolError(glob({ pattern: "*", path: "missing" }))).toContain("Directory not found");
    expect(await toolError(glob({ pattern: "*", path: "a.ts" }))).toContain("is a file");
    const controller = new AbortController();
    controller.abort();
    expect(await toolError(glob({ pattern: "*" }, makeContext(dir, { signal: controller.signal })))).toContain("interrupted");
  });
});
