// Path resolution against the session cwd (table) and near-name suggestions.
import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { brokenLinkMessage, notFoundMessage, resolveToolPath, similarNames } from "../../src/tools/paths.ts";
import { tempDir, writeTree } from "./tool-context.ts";

describe("resolveToolPath", () => {
  const cases: Array<[string, string, string]> = [
    ["relative", "src/a.ts", "/proj/src/a.ts"],
    ["dot", ".", "/proj"],
    ["parent", "../other/b.ts", "/other/b.ts"],
    ["absolute", "/etc/hosts", "/etc/hosts"],
    ["absolute normalised", "/a/./b/../c", "/a/c"],
    ["home alone", "~", "/home/u"],
    ["home prefix", "~/notes.md", "/home/u/notes.md"],
    ["tilde inside a name is literal", "~x/y", "/proj/~x/y"],
    ["surrounding spaces trimmed", "  a.ts ", "/proj/a.ts"],
  ];
  for (const [name, input, expected] of cases) {
    test(name, () => expect(resolveToolPath("/proj", input, "/home/u")).toBe(expected));
  }
});

describe("similarNames", () => {
  const names = ["index.ts", "Index.md", "config.json", "README.md", "utils.ts"];
  const cases: Array<[string, string[]]> = [
    ["index.js", ["index.ts", "Index.md"]],
    ["readme.md", ["README.md"]],
    ["utlis.ts", ["utils.ts"]],
    ["nothing-like-it.txt", []],
  ];
  for (const [wanted, expected] of cases) {
    test(wanted, () => expect(similarNames(wanted, names)).toEqual(expected));
  }
});

describe("notFoundMessage", () => {
  test("suggests a near name from the same directory", () => {
    const { dir, cleanup } = tempDir();
    try {
      writeTree(dir, { "server.ts": "" });
      expect(notFoundMessage(`${dir}/sever.ts`)).toBe(
        `File not found: ${dir}/sever.ts. Did you mean: ${dir}/server.ts?`,
      );
      expect(notFoundMessage(`${dir}/nope/x.ts`)).toContain("does not exist either");
    } finally {
      cleanup();
    }
  });
});

describe("brokenLinkMessage", () => {
  test("names the missing target, a loop, and nothing for a healthy path", () => {
    const { dir, cleanup } = tempDir();
    try {
      writeTree(dir, { "real.txt": "x" });
      symlinkSync("missing.txt", `${dir}/dangling`);
      symlinkSync(`${dir}/real.txt`, `${dir}/good`);
      symlinkSync("loop", `${dir}/loop`);
      expect(notFoundMessage(`${dir}/dangling`)).toBe(
        `${dir}/dangling is a broken symbolic link: it points at missing.txt (${dir}/missing.txt), which does not exist`,
      );
      expect(brokenLinkMessage(`${dir}/loop`)).toContain("which leads into a loop of symbolic links");
      expect(brokenLinkMessage(`${dir}/good`)).toBeNull();
      expect(brokenLinkMessage(`${dir}/real.txt`)).toBeNull();
      expect(brokenLinkMessage(`${dir}/absent`)).toBeNull();
    } finally {
      cleanup();
    }
  });
});
