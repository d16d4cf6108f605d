// Start-up guard: the modules every headless run loads before its first request import no costly
// runtime built-in at their top. In the compiled binary node:zlib takes about 1 ms to load,
// node:worker_threads 0.3 ms, node:child_process 0.2 ms and bun:ffi 0.7 ms with its dlopen; the
// code that needs them (compressed segments, sub-agents, ripgrep, FFI fallbacks) loads them itself.

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");

/** Modules main.ts loads on the way to a headless run, before the run's own static graph. */
const RUN_PATH = [
  "cli/main.ts",
  "cli/args.ts",
  "config/load.ts",
  "runtime/environ-secrets.ts",
  "cli/work-dirs.ts",
  "cli/terminal.ts",
  "cli/headless.ts",
];

const COSTLY = [
  "node:zlib",
  "zlib",
  "node:worker_threads",
  "worker_threads",
  "node:child_process",
  "child_process",
  "bun:ffi",
];

/** Every static (non-type) import of the modules reachable from `entries`: file → specifiers. */
function staticImports(entries: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const visit = (file: string) => {
    if (out.has(file)) return;
    const text = readFileSync(file, "utf8");
    const specs = [...text.matchAll(/^import\s+(?!type\s)(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/gm)].map((m) => m[1]!);
    out.set(file, specs);
    for (const spec of specs) if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
  };
  for (const entry of entries) visit(resolve(SRC, entry));
  return out;
}

test("the headless run path imports no costly built-in statically", () => {
  const graph = staticImports(RUN_PATH);
  // The walk must really cover the run: the agent loop, the session store and the tools (their
  // specs: their code loads with the first tool call, tests/cli/startup-imports.test.ts).
  const reached = [...graph.keys()].map((f) => relative(SRC, f));
  for (const module of ["agent/runner.ts", "store/line-reader.ts", "tasks/task-pool.ts", "tools/registry.ts"]) {
    expect(reached).toContain(module);
  }
  const offenders = [...graph].flatMap(([file, specs]) =>
    specs.filter((s) => COSTLY.includes(s)).map((s) => `${relative(SRC, file)}: ${s}`),
  );
  expect(offenders).toEqual([]);
});
