// Keeps the layering true: each folder of src/ may import only the folders listed for it.
import { expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../src");
const BASE = ["protocol", "config"];
const ALLOWED: Record<string, string[]> = {
  protocol: [],
  config: ["protocol"],
  store: BASE,
  memory: BASE,
  shell: BASE,
  tasks: BASE,
  llm: BASE,
  tools: [...BASE, "shell", "tasks", "store"],
  agent: [...BASE, "llm", "tools", "shell", "tasks", "store", "memory"],
  executor: [...BASE, "agent", "llm", "tools", "shell", "tasks", "store", "memory"],
  render: BASE,
  cli: [...BASE, "executor", "agent", "llm", "tools", "shell", "tasks", "store", "memory", "render"],
};

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

test("every src folder has a rule", () => {
  const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  expect(folders.filter((f) => !(f in ALLOWED))).toEqual([]);
});
