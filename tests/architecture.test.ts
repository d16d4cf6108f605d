// Keeps the layering true: each folder of src/ may import only the folders listed for it.
import { expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../src");
const BASE = ["protocol", "config", "text", "runtime"];
// The arrows docs/ARCHITECTURE.md draws, and no others (a test below checks the two agree).
const ALLOWED: Record<string, string[]> = {
  protocol: [],
  text: [],
  runtime: [],
  config: ["protocol"],
  store: BASE,
  memory: BASE,
  shell: [...BASE, "policy", "sandbox"],
  sandbox: BASE,
  policy: BASE,
  tasks: BASE,
  llm: BASE,
  render: BASE,
  tools: [...BASE, "shell", "tasks", "policy"],
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
    "tasks",
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
};

/** The "may import" table of docs/ARCHITECTURE.md's Layers section, as folder → allowed folders. */
function documentedLayers(): Record<string, string[]> {
  const doc = readFileSync(resolve(import.meta.dir, "../docs/ARCHITECTURE.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Layers"), doc.indexOf("\n## ", doc.indexOf("## Layers") + 1));
  const names = (cell: string) => [...cell.matchAll(/`([a-z]+(?:-[a-z]+)?)`/g)].map((m) => m[1]!);
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

test("imports only point down the layers", () => {
  const wrong: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file).split("/")[0];
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const target = relative(SRC, resolve(file, "..", m[1])).split("/")[0];
      if (target === from || target.startsWith("..")) continue;
      if (!(ALLOWED[from] ?? []).includes(target)) wrong.push(`${relative(SRC, file)} → ${m[1]}`);
    }
  }
  expect(wrong).toEqual([]);
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
