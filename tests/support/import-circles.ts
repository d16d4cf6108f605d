// The import graph of a source tree and its circles, for tests/architecture.test.ts. Every relative
// import counts, type-only ones and re-exports too: a circle of types still ties the modules into
// one unit that cannot be understood, tested or moved apart.

import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";

export type ImportGraph = Map<string, string[]>;

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

/** `import … from`, `export … from`, `import("…")` and `import "…"` of a relative path. */
const IMPORT = /(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g;

/** Each file of `root` (relative to it) → the files of `root` it imports. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root)) {
    const targets = [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) =>
      relative(root, resolve(file, "..", m[1] ?? "")),
    );
    graph.set(
      relative(root, file),
      targets.filter((t) => !t.startsWith("..")),
    );
  }
  return graph;
}

/**
 * The strongly connected components with more than one file (or a file importing itself), each
 * sorted, as Tarjan's algorithm finds them. Empty when the graph has no circle.
 */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    const at = index.size;
    index.set(v, at);
    low.set(v, at);
    stack.push(v);
    onStack.add(v);
    const edges = (graph.get(v) ?? []).filter((w) => graph.has(w));
    for (const w of edges) {
      if (!index.has(w)) visit(w);
      if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? at, low.get(w) ?? at, index.get(w) ?? at));
    }
    if (low.get(v) !== at) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || edges.includes(v)) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}
