// Every tool description is checked against behaviour: each number it states is a claim tied to
// the constant or config default that enforces it (a number with no claim fails, so a new limit
// cannot be written down without a check), and the claims about how calls run (one after another,
// in one shell) are checked against the real tool batch and shell pool.

import { afterAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { runToolCalls } from "../../src/agent/tool-batch.ts";
import { resolveConfig } from "../../src/config/config.ts";
import { createShellPool } from "../../src/shell/shell-pool.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { MAX_GLOB_RESULTS } from "../../src/tools/glob.ts";
import { MAX_GREP_FILE_BYTES, MAX_GREP_MATCHES, MAX_HEAD_LIMIT } from "../../src/tools/grep.ts";
import { DEFAULT_READ_LIMIT, MAX_LINE_CHARS } from "../../src/tools/read.ts";
import { ALL_TOOLS } from "../../src/tools/registry.ts";
import { toolLimits } from "../../src/tools/types.ts";
import { makeContext, tempDir } from "./tool-context.ts";

const defaults = resolveConfig({ flags: {}, env: {}, processCwd: "/", homeDir: "/" });
const description = (name: string) => ALL_TOOLS.find((t) => t.name === name)!.description;

/** [tool, a pattern whose first group is the number stated, the number the code enforces]. */
const NUMBER_CLAIMS: Array<[string, RegExp, number]> = [
  ["Bash", /`timeout_ms`, default (\d+)/, defaults.shell.commandTimeoutMs],
  ["Bash", /default \d+ \((\d+) minutes\)/, defaults.shell.commandTimeoutMs / 60_000],
  ["Bash", /at most (\d+) \(\d+ minutes\)/, defaults.shell.maxCommandTimeoutMs],
  ["Bash", /at most \d+ \((\d+) minutes\)/, defaults.shell.maxCommandTimeoutMs / 60_000],
  ["Read", /up to (\d+) lines are returned/, DEFAULT_READ_LIMIT],
  ["Read", /Lines longer than (\d+) characters are cut/, MAX_LINE_CHARS],
  ["Glob", /newest modification first, at most (\d+)/, MAX_GLOB_RESULTS],
  ["Grep", /(\d+) by default/, MAX_GREP_MATCHES],
  ["Grep", /by default, at most (\d+)/, MAX_HEAD_LIMIT],
  ["Grep", /files over (\d+) MB/, MAX_GREP_FILE_BYTES / 1024 / 1024],
];

/** Numbers that name no limit (a file descriptor in `2>&1`, a 1-based offset, ...), per tool. */
const NOT_LIMITS: Record<string, string[]> = {
  Bash: ["2", "1"],
  Read: ["1"],
};

describe("tool descriptions: every number is the one the code enforces", () => {
  for (const [tool, pattern, enforced] of NUMBER_CLAIMS) {
    test(`${tool}: ${pattern.source} = ${enforced}`, () => {
      const m = description(tool).match(pattern);
      expect(m).not.toBeNull();
      expect(Number(m![1])).toBe(enforced);
    });
  }

  for (const tool of ALL_TOOLS) {
    test(`${tool.name}: no number without a claim above`, () => {
      const claimed = new Set<string>(NOT_LIMITS[tool.name] ?? []);
      for (const [name, pattern] of NUMBER_CLAIMS)
        if (name === tool.name) claimed.add(description(name).match(pattern)?.[1] ?? "");
      const numbers = tool.description.match(/\d+/g) ?? [];
      expect(numbers.filter((n) => !claimed.has(n))).toEqual([]);
    });
  }

  test("the Bash input schema states the same timeouts", () => {
    const schema = JSON.stringify(bashTool.inputSchema);
    expect(schema).toContain(`default ${defaults.shell.commandTimeoutMs}`);
    expect(schema).toContain(`at most ${defaults.shell.maxCommandTimeoutMs}`);
  });
});

describe("tool descriptions: how calls of one turn run", () => {
  const tmp = tempDir();
  const root = realpathSync(tmp.dir);
  const config = resolveConfig({ flags: {}, env: {}, processCwd: root, homeDir: root });
  const pool = createShellPool(config.shell);
  afterAll(async () => {
    await pool.close();
    tmp.cleanup();
  });

  test("no description promises calls running at the same time or in separate shells", () => {
    for (const tool of ALL_TOOLS) {
      expect(tool.description).not.toMatch(
        /at the same time(?<!never at the same time)|separate shells|in parallel|concurrently/i,
      );
    }
  });

  test("Bash says calls of one turn run one after another in the same shell, and they do", async () => {
    expect(description("Bash")).toContain(
      "Several Bash calls in one turn run one after another, in order, in the same shell",
    );
    // The second call sees the first one's export and the same shell process: in order, one shell.
    const calls = [
      { type: "tool_use" as const, id: "c1", name: "Bash", input: { command: "export SEEN=first; echo $$" } },
      { type: "tool_use" as const, id: "c2", name: "Bash", input: { command: "echo $$ $SEEN" } },
    ];
    const ctx = { ...makeContext(root, { services: { shell: pool } }), limits: toolLimits(config) };
    const { results } = await runToolCalls({
      calls,
      tools: new Map([["Bash", bashTool]]),
      signal: new AbortController().signal,
      emit: () => {},
      context: () => ctx,
    });
    const out = results.map((r) => String((r as { content: unknown }).content).split("\n")[0]);
    const [pid] = out[0]!.split(" ");
    expect(out[1]).toBe(`${pid} first`);
  });
});
