// The interactive session's first frame (bench/interactive.ts): marked builds its grammar as it loads,
// so no module the session reaches by static imports may import it; src/render/markdown.ts loads it
// with loadMarkdown(), which the session awaits beside the executor, after the first frame.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = join(import.meta.dir, "..", "..");
const transpiler = new Bun.Transpiler({ loader: "ts" });

/** Every module of ours reached from `entry` by static imports, and the packages they import. */
function staticGraph(entry: string): { files: string[]; packages: Set<string> } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of transpiler.scanImports(readFileSync(file, "utf8"))) {
      if (imp.kind !== "import-statement") continue;
      if (!imp.path.startsWith(".")) {
        packages.add(imp.path);
        continue;
      }
      const target = resolve(dirname(file), imp.path);
      if (target.endsWith(".ts") && existsSync(target)) walk(target);
    }
  };
  walk(join(root, entry));
  return { files: [...seen].map((f) => relative(root, f)), packages };
}

test("the session's static imports reach the Markdown renderer but not marked", () => {
  const { files, packages } = staticGraph("src/cli/interactive/interactive-session.ts");
  expect(files).toContain("src/render/markdown.ts");
  expect([...packages]).not.toContain("marked");
});

test("the check sees marked where it is imported statically", () => {
  const { packages } = staticGraph("src/render/markdown-stream.ts");
  // markdown.ts imports only marked's types: scanImports leaves type-only imports out.
  expect([...packages]).not.toContain("marked");
  const src = "import { Lexer } from 'marked';\nexport const l = Lexer;\n";
  expect(transpiler.scanImports(src).map((i) => i.path)).toEqual(["marked"]);
});
