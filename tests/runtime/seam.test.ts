// Only src/runtime/ may touch a runtime's own API (`Bun.*`, `bun:*` modules, `Deno.*`), so that
// the same source runs under Bun and under Deno.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

/** The code without comments (line and block), so that prose naming Bun.spawn does not count. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

function runtimeUses(text: string): string[] {
  const found = code(text).match(/\b(?:Bun|Deno)\.\w+|["']bun:\w+["']/g) ?? [];
  return [...new Set(found)];
}

test("the scan finds each kind of use and ignores comments", () => {
  const sample =
    'Bun.spawn(x);\nconst d = Deno.Command;\nawait import("bun:jsc");\n// Bun.gc in a comment\n/* Deno.exit */\n';
  expect(runtimeUses(sample)).toEqual(["Bun.spawn", "Deno.Command", '"bun:jsc"']);
});

test("nothing outside src/runtime/ uses Bun.*, bun:* or Deno.*", () => {
  const offending: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const rel = relative(SRC, file);
    if (rel.startsWith("runtime/")) continue;
    for (const use of runtimeUses(readFileSync(file, "utf8"))) offending.push(`${rel}: ${use}`);
  }
  expect(offending).toEqual([]);
});
