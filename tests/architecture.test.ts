// Keeps the layering true: each folder of src/ may import only the folders listed for it.
import { expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { importCircles, importGraph } from "./support/import-circles.ts";

const SRC = resolve(import.meta.dir, "../src");
const WORKERS = resolve(import.meta.dir, "../workers");
const BASE = ["protocol", "config", "text", "runtime"];
// The arrows docs/ARCHITECTURE.md draws, and no others (a test below checks the two agree).
const ALLOWED: Record<string, string[]> = {
  protocol: [],
  text: [],
  runtime: [],
  config: ["protocol"],
  store: BASE,
  memory: BASE,
  shell: [...BASE, "sandbox"],
  sandbox: BASE,
  policy: BASE,
  tasks: BASE,
  llm: BASE,
  render: BASE,
  tools: [...BASE, "shell", "policy"],
  context: [...BASE, "llm", "store"],
  hooks: [...BASE, "policy", "sandbox"],
  agent: [...BASE, "context", "llm", "tools", "shell", "tasks", "store", "policy", "hooks"],
  mcp: [...BASE, "tools", "shell", "policy"],
  executor: [
    ...BASE,
    "agent",
    "context",
    "llm",
    "tools",
    "shell",
    "store",
    "memory",
    "policy",
    "sandbox",
    "mcp",
    "hooks",
  ],
  acp: [...BASE, "executor", "store", "policy", "tools"],
  "agent-sdk": [...BASE, "executor", "store", "policy", "hooks", "mcp"],
  cli: [
    ...BASE,
    "executor",
    "render",
    "store",
    "llm",
    "tasks",
    "tools",
    "policy",
    "sandbox",
    "mcp",
    "acp",
    "agent-sdk",
  ],
  // Worker thread entry points: not a folder of src/, but held to the same rule.
  workers: [...BASE, "agent"],
};

/** docs/ARCHITECTURE.md's "## Layers" section: the diagram, the "may import" table and the folders' jobs. */
function layersSection(): string {
  const doc = readFileSync(resolve(import.meta.dir, "../docs/ARCHITECTURE.md"), "utf8");
  return doc.slice(doc.indexOf("## Layers"), doc.indexOf("\n## ", doc.indexOf("## Layers") + 1));
}

/** The folder names a table cell spells in backticks. */
const names = (cell: string) => [...cell.matchAll(/`([a-z]+(?:-[a-z]+)?)`/g)].map((m) => m[1]!);

/**
 * The diagram at the top of the Layers section. Each line is a chain of groups, `a, b ─▶ c ─▶ d`: an arrow
 * from every folder of a group to every folder of the next; a line's words in parentheses are a comment.
 */
function drawnLayers(): { folders: string[]; arrows: Set<string> } {
  const section = layersSection();
  const start = section.indexOf("```\n") + 4;
  const folders: string[] = [];
  const arrows = new Set<string>();
  for (const line of section.slice(start, section.indexOf("\n```", start)).split("\n")) {
    if (!line.trim()) continue;
    const groups = line
      .split(" (")[0]!
      .split("─▶")
      .map((g) => g.split(",").map((n) => n.trim()));
    folders.push(...groups.flat());
    groups.slice(1).forEach((to, i) => {
      for (const a of groups[i]!) for (const b of to) arrows.add(`${a} → ${b}`);
    });
  }
  return { folders, arrows };
}

/**
 * The third column of the "may import" table, as folder → the folders it gives a reason for importing:
 * clauses `` `store`, `llm`: why `` separated by semicolons. A clause of another shape is returned as is.
 */
function skipReasons(): { reasons: Record<string, string[]>; unreadable: string[] } {
  const reasons: Record<string, string[]> = {};
  const unreadable: string[] = [];
  for (const line of layersSection().split("\n")) {
    const cells = line.split("|").slice(1, -1);
    if (cells.length < 3 || !cells[0]!.includes("`")) continue;
    const why = cells[2]!.trim();
    for (const clause of why ? why.split(/;\s*/) : []) {
      const head = /^((?:`[a-z-]+`, )*`[a-z-]+`): \S/.exec(clause);
      if (!head) unreadable.push(clause);
      for (const folder of names(cells[0]!)) (reasons[folder] ??= []).push(...names(head?.[1] ?? ""));
    }
  }
  return { reasons, unreadable };
}

/** The "may import" table of docs/ARCHITECTURE.md's Layers section, as folder → allowed folders. */
function documentedLayers(): Record<string, string[]> {
  const section = layersSection();
  const rows: Record<string, string[]> = { protocol: [], text: [], runtime: [], config: ["protocol"] };
  for (const line of section.split("\n")) {
    const cells = line.split("|").slice(1, -1);
    if (cells.length < 2 || !cells[0]!.includes("`")) continue;
    for (const folder of names(cells[0]!)) rows[folder] = [...(folder in rows ? [] : BASE), ...names(cells[1]!)];
  }
  return rows;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

/** The folder a path belongs to: a folder of src/, `workers`, or the path itself outside both. */
function folderOf(path: string): string {
  if (relative(WORKERS, path).split("/")[0] !== "..") return "workers";
  const inSrc = relative(SRC, path);
  return inSrc.startsWith("..") ? relative(resolve(SRC, ".."), path) : inSrc.split("/")[0]!;
}

/** Every relative import of src/ and workers/ that leaves its own folder. */
function crossFolderImports(): { from: string; to: string; file: string; spec: string }[] {
  const found: { from: string; to: string; file: string; spec: string }[] = [];
  for (const file of [...sourceFiles(SRC), ...sourceFiles(WORKERS)]) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const [from, to] = [folderOf(file), folderOf(resolve(file, "..", m[1]!))];
      if (from !== to) found.push({ from, to, file: relative(resolve(SRC, ".."), file), spec: m[1]! });
    }
  }
  return found;
}

test("imports only point down the layers", () => {
  const wrong = crossFolderImports()
    .filter((i) => !(ALLOWED[i.from] ?? []).includes(i.to))
    .map((i) => `${i.file} → ${i.spec}`);
  expect(wrong).toEqual([]);
});

test("the layers allow no import the code does not make", () => {
  const made = new Set(crossFolderImports().map((i) => `${i.from} → ${i.to}`));
  const unused = Object.entries(ALLOWED).flatMap(([from, to]) =>
    to.filter((t) => !BASE.includes(t) && !made.has(`${from} → ${t}`)).map((t) => `${from} → ${t}`),
  );
  expect(unused).toEqual([]);
});

test("the allowed imports are the ones docs/ARCHITECTURE.md draws", () => {
  const sorted = (r: Record<string, string[]>) =>
    Object.fromEntries(
      Object.keys(r)
        .sort()
        .map((k) => [k, [...r[k]!].sort()]),
    );
  expect(sorted(documentedLayers())).toEqual(sorted(ALLOWED));
});

test("the diagram shows every folder of the table, and no other", () => {
  const drawn = [...new Set(drawnLayers().folders)].sort();
  expect(drawn).toEqual(Object.keys(ALLOWED).sort());
});

test("every arrow of the diagram is an allowed import", () => {
  const allowed = new Set(Object.entries(ALLOWED).flatMap(([from, to]) => to.map((t) => `${from} → ${t}`)));
  expect([...drawnLayers().arrows].filter((a) => !allowed.has(a))).toEqual([]);
});

test("an allowed import the diagram does not draw points down it, with a reason in the table", () => {
  const { arrows } = drawnLayers();
  const { reasons, unreadable } = skipReasons();
  const next = (from: string) => [...arrows].filter((a) => a.startsWith(`${from} → `)).map((a) => a.split(" → ")[1]!);
  const below = (from: string, to: string) => {
    const seen = new Set<string>();
    for (let todo = next(from); todo.length > 0; ) {
      const f = todo.pop()!;
      if (f === to) return true;
      if (!seen.has(f)) todo.push(...next(f));
      seen.add(f);
    }
    return false;
  };
  const wrong = unreadable.map((clause) => `a reason not of the form \`folder\`: why: ${clause}`);
  for (const [from, to] of Object.entries(ALLOWED)) {
    const skips = to.filter((t) => !BASE.includes(t) && !arrows.has(`${from} → ${t}`));
    for (const t of skips) {
      if (!below(from, t)) wrong.push(`${from} → ${t}: ${t} is not below ${from} in the diagram`);
      if (!reasons[from]?.includes(t)) wrong.push(`${from} → ${t}: skips a layer without a reason in the table`);
    }
    for (const t of reasons[from] ?? []) {
      if (!skips.includes(t)) wrong.push(`${from} → ${t}: a reason for an import that is drawn or not allowed`);
    }
  }
  expect(wrong).toEqual([]);
});

test("every src folder has a rule", () => {
  const folders = readdirSync(SRC, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  expect(folders.filter((f) => !(f in ALLOWED))).toEqual([]);
});

test("the words sent with every request are ASCII", async () => {
  // One non-ASCII character makes the whole JSON request body a 16-bit string in JavaScriptCore,
  // doubling it and every copy; with megabytes of base64 images that was +120 MB peak RSS.
  const { ALL_TOOLS } = await import("../src/tools/registry.ts");
  const { renderSystemPrompt } = await import("../src/agent/system-prompt.ts");
  const texts = ALL_TOOLS.map((t) => `${t.name}: ${t.description} ${JSON.stringify(t.inputSchema)}`);
  texts.push(renderSystemPrompt({ cwd: "/w", platform: "linux", date: new Date(0), instructions: [] }, ["Bash"]));
  const offending = texts.filter((t) => /[^\x00-\x7f]/.test(t)).map((t) => t.slice(0, 40));
  expect(offending).toEqual([]);
});

test("no import circles among src/ files, type-only imports included", () => {
  // A circle is cut by moving the shared types to a module of their own (see policy-types.ts).
  expect(importCircles(importGraph(SRC)).map((c) => c.join(" ↔ "))).toEqual([]);
});

test.each([
  ["a chain", { a: ["b"], b: ["c"], c: [] }, []],
  ["two files", { a: ["b"], b: ["a"], c: ["a"] }, [["a", "b"]]],
  ["a file of its own", { a: ["a"] }, [["a"]]],
  ["a long way round", { a: ["b"], b: ["c"], c: ["d"], d: ["b"], e: [] }, [["b", "c", "d"]]],
  [
    "two circles",
    { a: ["b"], b: ["a", "c"], c: ["d"], d: ["c"] },
    [
      ["c", "d"],
      ["a", "b"],
    ],
  ],
  ["outside the tree", { a: ["x"], x2: [] }, []],
])("the circle finder: %s", (_name, edges, circles) => {
  const graph = new Map(Object.entries(edges as Record<string, string[]>));
  expect(importCircles(graph)).toEqual(circles as string[][]);
});
