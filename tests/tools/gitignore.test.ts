// .gitignore matching (table) and the walker that applies nested ignore files.
import { describe, expect, test } from "bun:test";
import { compileRule, ignoresPath, parseGitignore } from "../../src/tools/gitignore.ts";
import { walkFiles } from "../../src/tools/walk.ts";
import { tempDir, writeTree } from "./tool-context.ts";

// [gitignore text, path relative to it, is a directory, ignored?]
const cases: Array<[string, string, boolean, boolean]> = [
  ["*.log", "a.log", false, true],
  ["*.log", "deep/er/a.log", false, true],
  ["*.log", "a.log.txt", false, false],
  ["# comment\n\n*.log", "# comment", false, false],
  ["\\#notes", "#notes", false, true],
  ["build/", "build", true, true],
  ["build/", "build", false, false],
  ["build/", "src/build/out.js", false, true],
  ["build", "src/build", false, true],
  ["/build", "build/x", false, true],
  ["/build", "src/build", true, false],
  ["doc/frotz", "doc/frotz", true, true],
  ["doc/frotz", "a/doc/frotz", true, false],
  ["frotz/", "a/frotz/b", false, true],
  ["*.log\n!keep.log", "keep.log", false, false],
  ["*.log\n!keep.log", "other.log", false, true],
  ["!keep.log\n*.log", "keep.log", false, true],
  ["logs/\n!logs/keep.log", "logs/keep.log", false, true],
  ["logs/*\n!logs/keep.log", "logs/keep.log", false, false],
  ["**/foo", "foo", false, true],
  ["**/foo", "a/b/foo", false, true],
  ["**/foo/bar", "x/foo/bar", false, true],
  ["abc/**", "abc/x/y", false, true],
  ["abc/**", "abc", true, false],
  ["a/**/b", "a/b", false, true],
  ["a/**/b", "a/x/y/b", false, true],
  ["a/**/b", "c/a/b", false, false],
  ["a?c", "abc", false, true],
  ["a?c", "a/c", false, false],
  ["file[0-9].txt", "file5.txt", false, true],
  ["file[!0-9].txt", "file5.txt", false, false],
  ["file[!0-9].txt", "fileX.txt", false, true],
  ["*.txt  ", "a.txt", false, true],
  ["a\\ ", "a ", false, true],
  ["src/*.js", "src/a.js", false, true],
  ["src/*.js", "src/lib/a.js", false, false],
  ["node_modules", "node_modules/pkg/index.js", false, true],
  ["", ".git/config", false, true],
  ["", "src/a.ts", false, false],
  ["*.LOG", "a.log", false, false],
  ["*.log\r\n!b.log\r\n", "b.log", false, false],
];

describe("ignoresPath", () => {
  for (const [rules, path, isDir, expected] of cases) {
    test(`${JSON.stringify(rules)} ${expected ? "ignores" : "keeps"} ${path}${isDir ? "/" : ""}`, () => {
      expect(ignoresPath(parseGitignore(rules), path, isDir)).toBe(expected);
    });
  }
});

describe("compileRule", () => {
  test("skips blanks and comments, keeps flags", () => {
    expect(compileRule("")).toBeNull();
    expect(compileRule("   ")).toBeNull();
    expect(compileRule("# x")).toBeNull();
    expect(compileRule("!dist/")).toMatchObject({ negated: true, dirOnly: true });
  });
});

async function collect(root: string, cwd = root): Promise<string[]> {
  const out: string[] = [];
  for await (const f of walkFiles(root, { signal: new AbortController().signal, cwd }))
    out.push(f.slice(root.length + 1));
  return out.sort();
}

describe("walkFiles", () => {
  test("honours nested .gitignore files, negation and .git", async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeTree(dir, {
        ".gitignore": "*.log\ndist/\n",
        ".git/HEAD": "ref",
        "a.ts": "",
        "a.log": "",
        "dist/x.js": "",
        "pkg/.gitignore": "!keep.log\ngen/\n",
        "pkg/keep.log": "",
        "pkg/drop.log": "",
        "pkg/gen/y.ts": "",
        "pkg/src/z.ts": "",
        "other/gen/w.ts": "",
      });
      expect(await collect(dir)).toEqual([
        ".gitignore",
        "a.ts",
        "other/gen/w.ts",
        "pkg/.gitignore",
        "pkg/keep.log",
        "pkg/src/z.ts",
      ]);
    } finally {
      cleanup();
    }
  });

  test("applies .gitignore files above the start directory", async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeTree(dir, { ".gitignore": "*.tmp\n/sub/local/\n", "sub/a.tmp": "", "sub/b.ts": "", "sub/local/c.ts": "" });
      expect(await collect(`${dir}/sub`, dir)).toEqual(["b.ts"]);
      // Outside cwd and with no repository around, only the start directory's own rules apply.
      expect(await collect(`${dir}/sub`, `${dir}/elsewhere`)).toEqual(["a.tmp", "b.ts", "local/c.ts"]);
    } finally {
      cleanup();
    }
  });

  test("uses the repository root's rules and .git/info/exclude", async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeTree(dir, {
        ".git/info/exclude": "secret.txt\n",
        ".gitignore": "*.bak\n",
        "sub/secret.txt": "",
        "sub/x.bak": "",
        "sub/ok.ts": "",
      });
      expect(await collect(`${dir}/sub`, "/nowhere")).toEqual(["ok.ts"]);
    } finally {
      cleanup();
    }
  });

  test("stops when aborted", async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeTree(dir, { "a/1": "", "b/2": "", "c/3": "" });
      const controller = new AbortController();
      const seen: string[] = [];
      for await (const f of walkFiles(dir, { signal: controller.signal, cwd: dir })) {
        seen.push(f);
        controller.abort();
      }
      expect(seen.length).toBe(1);
    } finally {
      cleanup();
    }
  });
});
