// The README documents every environment variable the config reads (only src/config/ reads the
// environment), and states the provider-selection rule the code follows.

import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveSelection } from "../src/llm/select.ts";

const ROOT = join(import.meta.dir, "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

test("every variable src/config reads is in the README", () => {
  const dir = join(ROOT, "src", "config");
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const text = readFileSync(join(dir, file), "utf8");
    for (const m of text.matchAll(/(?:env\.|env\[\s*"|int\(env,\s*")([A-Z][A-Z0-9_]+)/g)) names.add(m[1]);
  }
  const ours = [...names].filter((n) => /^(SYNAPSE_|ANTHROPIC_|OPENAI_|TOOL_|NO_COLOR|XDG_)/.test(n));
  expect(ours.length).toBeGreaterThan(20);
  expect(ours.filter((n) => !new RegExp(`\\b${n}\\b`).test(README))).toEqual([]);
});

test("the README's selection rule for a local model with both providers set is what the code does", () => {
  // The case: ANTHROPIC_API_KEY, OPENAI_BASE_URL and -m llama3 go to the local server.
  const picked = resolveSelection({ model: "llama3", anthropic: { apiKey: "k" }, openai: { baseUrl: "http://localhost:11434/v1" } });
  expect(picked.provider).toBe("openai");
  const flat = README.replace(/\s+/g, " ");
  expect(flat).toContain("goes to the OpenAI-compatible server when `OPENAI_BASE_URL` is set (even if `ANTHROPIC_API_KEY` is set too)");
  expect(flat).not.toContain("otherwise whichever key is set, Anthropic first");
  // And the base URL forms each SDK expects.
  expect(README).toContain("export OPENAI_BASE_URL=http://localhost:11434/v1");
});
