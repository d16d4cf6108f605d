// The README's Safety claims about rules, from the compiled binary (issue 24 items 1, 3, 10, 12):
// a Read deny rule filters Grep and Glob results, `:*` is a prefix on the last word, deny rules
// from config files apply in bypass, and the CI example's accept-edits run does what it says.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLLM, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();

function lastResults(s: FakeLLM): Array<{ content: string; is_error?: boolean }> {
  const out: Array<{ content: string; is_error?: boolean }> = [];
  for (const m of s.requests.at(-1)!.body.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content)
      if (b.type === "tool_result")
        out.push({
          content: typeof b.content === "string" ? b.content : JSON.stringify(b.content),
          is_error: b.is_error,
        });
  }
  return out;
}

function project() {
  const home = tempHome();
  const ws = join(home.dir, "project");
  mkdirSync(join(ws, "docs", "sub"), { recursive: true });
  mkdirSync(join(ws, "src"), { recursive: true });
  writeFileSync(join(ws, "docs", "sub", "a.md"), "launch plan: hidden-words\n");
  writeFileSync(join(ws, "src", "b.ts"), "// launch plan\n");
  return { home, ws };
}

const calls = (list: Array<{ name: string; input: unknown }>): ScriptedReply[] => [
  ...list.map((c) => ({ toolCalls: [c] })),
  { text: "done" },
];

describe("rules, as the README states them", () => {
  test("a Read deny rule leaves files out of Grep (content and files mode) and Glob results", async () => {
    const { home, ws } = project();
    const s = await serve(
      calls([
        { name: "Grep", input: { pattern: "launch plan", output_mode: "content" } },
        { name: "Grep", input: { pattern: "launch", path: "docs", output_mode: "content" } },
        { name: "Grep", input: { pattern: "launch", output_mode: "files_with_matches" } },
        { name: "Glob", input: { pattern: "docs/**" } },
      ]),
    );
    const r = await runBinary({
      args: ["--deny", "Read(docs/**)", "-C", ws, "find it"],
      env: { ...home.env, ...providerEnv(s.url) },
    });
    expect(r.code).toBe(0);
    const out = lastResults(s);
    expect(out[0]!.content).toContain("b.ts");
    expect(out[0]!.content).toContain("// launch plan");
    for (const res of out) {
      expect(res.content).not.toContain("a.md");
      expect(res.content).not.toContain("hidden-words");
      expect(res.content).toContain("left out: a deny rule forbids reading those files");
    }
  });

  test("deny rules from the user config file apply in bypass mode too", async () => {
    const { home, ws } = project();
    mkdirSync(join(home.env.XDG_CONFIG_HOME!, "synapse"), { recursive: true });
    writeFileSync(
      join(home.env.XDG_CONFIG_HOME!, "synapse", "config.json"),
      JSON.stringify({ permissions: { deny: ["Bash(touch *)", "Write(src/**)"] } }),
    );
    const s = await serve(
      calls([
        { name: "Bash", input: { command: "touch denied" } },
        { name: "Write", input: { path: "src/c.ts", content: "x" } },
      ]),
    );
    const r = await runBinary({ args: ["-y", "-C", ws, "go"], env: { ...home.env, ...providerEnv(s.url) } });
    expect(r.code).toBe(0);
    for (const res of lastResults(s))
      expect(res).toMatchObject({ is_error: true, content: expect.stringContaining("Permission denied") });
    expect(existsSync(join(ws, "denied"))).toBe(false);
    expect(existsSync(join(ws, "src", "c.ts"))).toBe(false);
  });

  test("the CI example: accept-edits runs edits, proven commands and `npm run lint:*` scripts, nothing else", async () => {
    const { home, ws } = project();
    const s = await serve(
      calls([
        { name: "Write", input: { path: "src/fixed.ts", content: "ok\n" } },
        { name: "Bash", input: { command: "git diff --stat; ls src" } },
        { name: "Bash", input: { command: "npm run lint:fix" } },
        { name: "Bash", input: { command: "npm run lint:js --quiet" } },
        { name: "Bash", input: { command: "npm run deploy" } },
      ]),
    );
    const args = [
      "--permission-mode",
      "accept-edits",
      "--allow",
      "Bash(npm test)",
      "--allow",
      "Bash(npm run lint:*)",
      "--deny",
      "Bash(git push *)",
      "-C",
      ws,
      "fix the failing test",
    ];
    const r = await runBinary({ args, env: { ...home.env, ...providerEnv(s.url) } });
    expect(r.code).toBe(0);
    const out = lastResults(s);
    expect(existsSync(join(ws, "src", "fixed.ts"))).toBe(true);
    // Whether npm is installed here or not, the lint scripts were let through the gate.
    for (const res of out.slice(1, 4)) expect(res.content).not.toContain("Permission denied");
    expect(out[4]).toMatchObject({ is_error: true, content: expect.stringContaining("accept-edits") });
  });
});
