// Directory relations the pool uses to pick a shell near the directory a command needs.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getPathRelation, normalizePath, resolveRealDir } from "../../src/shell/path-relation.ts";

describe("getPathRelation", () => {
  test.each([
    ["/a/b", "/a/b", "same"],
    ["/a/b/", "/a/b", "same"],
    ["/a/b", "/a/b///", "same"],
    ["/a/./b", "/a/b", "same"],
    ["/a/c/../b", "/a/b", "same"],
    ["/a//b", "/a/b", "same"],
    ["/", "/", "same"],
    ["/a", "/a/b", "parent"],
    ["/a", "/a/b/c/d", "parent"],
    ["/", "/a", "parent"],
    ["/a/", "/a/b", "parent"],
    ["/a/b/..", "/a/b", "parent"],
    ["/a/b", "/a", "child"],
    ["/a/b/c", "/a/", "child"],
    ["/a", "/", "child"],
    ["/a/b", "/a/bc", "unrelated"],
    ["/a/bc", "/a/b", "unrelated"],
    ["/a/b", "/a/c", "unrelated"],
    ["/x", "/y/x", "unrelated"],
  ])("%p vs %p → %p", (a, b, relation) => {
    expect(getPathRelation(a, b)).toBe(relation as any);
  });
});

describe("normalizePath", () => {
  test.each([
    ["/a/b/", "/a/b"],
    ["/", "/"],
    ["//", "/"],
    ["/a/../../b", "/b"],
    ["/a/./b/.", "/a/b"],
  ])("%p → %p", (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });
});

describe("resolveRealDir", () => {
  const root = mkdtempSync(join(tmpdir(), "synapse-path-"));
  const real = resolveRealDir(root);
  mkdirSync(join(root, "target", "inner"), { recursive: true });
  symlinkSync(join(root, "target"), join(root, "link"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test("a symlink and its target are the same directory", () => {
    expect(getPathRelation(resolveRealDir(join(root, "link")), resolveRealDir(join(root, "target")))).toBe("same");
  });
  test("a symlinked parent contains the target's child", () => {
    expect(getPathRelation(resolveRealDir(join(root, "link")), resolveRealDir(join(root, "target", "inner")))).toBe(
      "parent",
    );
  });
  test("lexically they differ, which is why real paths are compared", () => {
    expect(getPathRelation(join(root, "link"), join(root, "target"))).toBe("unrelated");
  });
  test("a missing path falls back to its normal form", () => {
    expect(resolveRealDir(`${real}/missing/../gone/`)).toBe(`${real}/gone`);
  });
});
