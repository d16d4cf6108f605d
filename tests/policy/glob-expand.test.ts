// The one glob walker the policy judges paths with: which names a glob reaches, hidden ones only
// when bash would match them, and no partial answer when there are too many to look at.

import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expandGlobPath } from "../../src/policy/glob-expand.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "synapse-glob-")));
for (const d of ["a/.hidden", "a/src", "b"]) mkdirSync(join(root, d), { recursive: true });
for (const f of ["a/x.ts", "a/y.ts", "a/.env", "a/src/z.ts", "b/x.ts"]) writeFileSync(join(root, f), "");
afterAll(() => rmSync(root, { recursive: true, force: true }));

test.each([
  ["*/x.ts", false, ["a/x.ts", "b/x.ts"]],
  ["a/*", false, ["a/src", "a/x.ts", "a/y.ts"]],
  ["a/*", true, ["a/.env", "a/.hidden", "a/src", "a/x.ts", "a/y.ts"]],
  ["a/.*", false, ["a/.env", "a/.hidden"]],
  ["a/?.ts", false, ["a/x.ts", "a/y.ts"]],
  ["a/src/z.ts", false, ["a/src/z.ts"]],
  ["nothing/*", false, []],
] as const)("%s (dotglob %p)", (glob, dotglob, expected) => {
  const found = expandGlobPath(join(root, glob), dotglob, 100);
  expect(found?.map((p) => p.slice(root.length + 1)).sort()).toEqual([...expected].sort());
});

test("more matches than the limit: null, never a partial list", () => {
  expect(expandGlobPath(join(root, "a/*"), true, 4)).toBeNull();
  expect(expandGlobPath(join(root, "a/*"), true, 5)).toHaveLength(5);
});
