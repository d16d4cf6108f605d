// AGENTS.md / CLAUDE.md discovery stops at the repository root or $HOME, never above (issue 16, §5):
// a file in a shared parent folder (/tmp, a mounted volume, a folder of cloned repositories) was
// written by someone else and must not become instructions to the agent.

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findInstructions, instructionDirs } from "../../src/agent/system-prompt.ts";

describe("instructionDirs", () => {
  const repoAt =
    (...roots: string[]) =>
    (dir: string) =>
      roots.includes(dir);
  const cases: Array<[string, string, string, string[], string[]]> = [
    [
      "stops at the repository root",
      "/home/u/code/repo/src/lib",
      "/home/u",
      ["/home/u/code/repo"],
      ["/home/u/code/repo/src/lib", "/home/u/code/repo/src", "/home/u/code/repo"],
    ],
    [
      "stops at $HOME when there is no repository",
      "/home/u/notes/a",
      "/home/u",
      [],
      ["/home/u/notes/a", "/home/u/notes", "/home/u"],
    ],
    [
      "the repository root comes first when $HOME is above it",
      "/home/u/r/x",
      "/home/u",
      ["/home/u/r"],
      ["/home/u/r/x", "/home/u/r"],
    ],
    ["$HOME comes first when a repository encloses it", "/home/u/a", "/home/u", ["/home"], ["/home/u/a", "/home/u"]],
    ["outside both: the working directory alone", "/tmp/x/y", "/home/u", [], ["/tmp/x/y"]],
    ["a repository outside $HOME", "/srv/repo/sub", "/home/u", ["/srv/repo"], ["/srv/repo/sub", "/srv/repo"]],
    ["the working directory is the root", "/srv/repo", "/home/u", ["/srv/repo"], ["/srv/repo"]],
    ["the working directory is $HOME", "/home/u", "/home/u", [], ["/home/u"]],
  ];
  for (const [name, cwd, home, roots, expected] of cases) {
    test(name, () => expect(instructionDirs(cwd, home, repoAt(...roots))).toEqual(expected));
  }
});

describe("findInstructions on disk", () => {
  function tree() {
    const top = mkdtempSync(join(tmpdir(), "synapse-instr-"));
    const parent = join(top, "parent");
    const repo = join(parent, "repo");
    const sub = join(repo, "pkg");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(top, "AGENTS.md"), "from above the parent\n");
    writeFileSync(join(parent, "CLAUDE.md"), "from the parent folder\n");
    writeFileSync(join(repo, "AGENTS.md"), "repo rules\n");
    writeFileSync(join(sub, "CLAUDE.md"), "package rules\n");
    return { top, parent, repo, sub };
  }

  test("files above the repository root are not read", () => {
    const { top, repo, sub } = tree();
    const found = findInstructions(sub, join(top, "no-such-home"));
    expect(found.map((f) => f.path)).toEqual([join(repo, "AGENTS.md"), join(sub, "CLAUDE.md")]);
  });

  test("without a repository, files above $HOME are not read", () => {
    const { top, parent } = tree();
    const home = join(parent, "home");
    const work = join(home, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(home, "AGENTS.md"), "my own rules\n");
    expect(findInstructions(work, home).map((f) => f.text)).toEqual(["my own rules\n"]);
    expect(findInstructions(work, home).some((f) => f.path.startsWith(join(top, "AGENTS.md")))).toBe(false);
  });

  test("outside a repository and $HOME only the working directory's files count", () => {
    const { top, parent } = tree();
    const loose = join(parent, "loose");
    mkdirSync(loose);
    writeFileSync(join(loose, "AGENTS.md"), "here\n");
    expect(findInstructions(loose, join(top, "no-such-home")).map((f) => f.text)).toEqual(["here\n"]);
  });
});
