// The headless path must not load any UI code: the interactive session, the differential renderer
// and the Markdown renderer are reached only through a dynamic import() behind the terminal check.

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");

/** Every module reachable from `entry` through static imports (type-only imports left out). */
function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^import\s+(?!type\s)(?:[^'"]*?\s+from\s+)?["'](\.[^"']+)["']/gm)) {
      visit(resolve(dirname(file), m[1]!));
    }
  };
  visit(entry);
  return seen;
}

const UI = [
  /^cli\/interactive\//,
  /^render\/screen-diff\.ts$/,
  /^render\/markdown\.ts$/,
  /^render\/code-colour\.ts$/,
  /^render\/diff-view\.ts$/,
];

test("the headless run and main reach no UI module statically", () => {
  for (const entry of ["cli/main.ts", "cli/headless.ts"]) {
    const reached = [...staticGraph(resolve(SRC, entry))].map((f) => relative(SRC, f));
    expect(reached.filter((f) => UI.some((re) => re.test(f)))).toEqual([]);
  }
});

test("the interactive session is reached from main only through import()", () => {
  const main = readFileSync(resolve(SRC, "cli/main.ts"), "utf8");
  expect(main).toContain('await import("./interactive/interactive-session.ts")');
  const reached = [...staticGraph(resolve(SRC, "cli/interactive/interactive-session.ts"))].map((f) => relative(SRC, f));
  expect(reached).toContain("render/screen-diff.ts");
});
