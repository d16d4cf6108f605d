// What the README tells a new user, checked against the compiled binary (issue 24): the `error:`
// line in every output format, slash commands that need a saved session, what -q keeps, a failed
// write to stdout in plain words, `-c` with no session, the json result's fields as the README's
// sample shows them, the /help aliases, and when identical output lines are collapsed.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { BINARY, jsonLines, providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
const README = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");

/** Runs the binary through bash with stdout sent to `redirect` (`> /dev/full`, `| head -c 1`). */
async function shellRun(args: string, redirect: string, env: Record<string, string> = {}) {
  const home = tempHome();
  const proc = Bun.spawn(["bash", "-c", `"${BINARY}" ${args} ${redirect}; echo "exit=\${PIPESTATUS[0]}" >&2`], {
    cwd: home.dir,
    env: { PATH: process.env.PATH!, ...home.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const code = Number(/exit=(\d+)\n$/.exec(stderr)![1]);
  return { code, stdout, stderr: stderr.replace(/exit=\d+\n$/, "") };
}

describe("a failed run prints one `error:` line on stderr in every output format", () => {
  for (const format of ["text", "json", "stream-json"]) {
    test(`${format}: an API 404, and a final answer cut at the output limit`, async () => {
      const fake = await serve([{ status: 404 }, { text: "half an answ", stopReason: "max_tokens" }]);
      const notFound = await runBinary({ args: ["-o", format, "hi"], env: providerEnv(fake.url) });
      expect(notFound.code).toBe(1);
      expect(notFound.stderr.split("\n").filter((l) => l.startsWith("error: "))).toHaveLength(1);
      expect(notFound.stderr).toMatch(/^error: .*could not be found/m);
      const cut = await runBinary({ args: ["-o", format, "-q", "hi"], env: providerEnv(fake.url) });
      expect(cut.code).toBe(1);
      expect(cut.stderr).toMatch(/^error: the answer.* was cut at the output limit: raise SYNAPSE_MAX_TOKENS/m);
      if (format === "text") return expect(cut.stdout).toBe("half an answ\n");
      // stdout stays pure JSON; the result says the same for scripts.
      const result = format === "json" ? JSON.parse(cut.stdout) : jsonLines(cut.stdout).at(-1);
      expect(result).toMatchObject({
        type: "result",
        subtype: "error_max_tokens",
        is_error: true,
        result: "half an answ",
      });
    });
  }

  test("a successful or interrupted-free run prints no error line", async () => {
    const fake = await serve([{ text: "fine" }]);
    const r = await runBinary({ args: ["-o", "json", "hi"], env: providerEnv(fake.url) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
  });
});

describe("piped slash commands that act on a saved session", () => {
  test("/model <name> and /compact without -c or -r are usage errors naming -c; the model list is not", async () => {
    const fake = await serve([], { models: [{ id: "claude-sonnet-5-5" }, { id: "fake-model-b" }] });
    const model = await runBinary({ stdin: "/model fake-model-b", env: providerEnv(fake.url) });
    expect(model.code).toBe(2);
    expect(model.stderr).toBe(
      "synapse: /model fake-model-b switches the model of a saved session: add -c (the latest session here) or -r <id> " +
        "(see synapse sessions); for a new request, use -m fake-model-b\n",
    );
    const compact = await runBinary({ stdin: "/compact keep the API", env: providerEnv(fake.url) });
    expect(compact.code).toBe(2);
    expect(compact.stderr).toContain("/compact condenses a saved session: add -c");
    const list = await runBinary({ stdin: "/model", env: providerEnv(fake.url) });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("* claude-sonnet-5-5");
    // None of them reached a model.
    expect(fake.requests.filter((r) => r.path === "/v1/messages")).toEqual([]);
  });

  test("-c where this directory has no session exits 2 saying so", async () => {
    const fake = await serve([{ text: "never" }]);
    const r = await runBinary({ args: ["-c", "go on"], env: providerEnv(fake.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^synapse: no previous session for \//);
    expect(fake.requests).toEqual([]);
  });
});

describe("-q keeps what changes the outcome", () => {
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), "synapse-quiet-"));
    writeFileSync(join(d, "a.txt"), "alpha\n");
    return d;
  };
  const script = (): ScriptedReply[] => [
    { status: 503 },
    {
      toolCalls: [
        { name: "Read", input: { path: "a.txt" } },
        { name: "Write", input: { path: "/nonexistent-dir/x.txt", content: "x" } },
      ],
    },
    {
      toolCalls: [{ name: "Write", input: {}, rawArguments: '{"path":"big.txt","content":"aaa' }],
      stopReason: "max_tokens",
    },
    { text: "done" },
  ];

  test("tool rows and retry notices go; warnings and refused calls stay", async () => {
    const cwd = dir();
    const loud = await runBinary({ args: ["-C", cwd, "go"], env: providerEnv((await serve(script())).url) });
    expect(loud.code).toBe(0);
    expect(loud.stderr).toContain("● Read(a.txt)");
    expect(loud.stderr).toContain("retrying in");
    const quiet = await runBinary({ args: ["-q", "-C", cwd, "go"], env: providerEnv((await serve(script())).url) });
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe("done\n");
    const lines = quiet.stderr.trimEnd().split("\n");
    expect(lines.some((l) => l.startsWith("permission denied: Write: "))).toBe(true);
    expect(lines.some((l) => l.startsWith("warning: ") && l.includes("cut at the output limit"))).toBe(true);
    expect(lines.filter((l) => !l.startsWith("permission denied: ") && !l.startsWith("warning: "))).toEqual([]);
  });

  test("the bypass-mode warning stays", async () => {
    const r = await runBinary({ args: ["-q", "-y", "hi"], env: providerEnv((await serve([{ text: "ok" }])).url) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("warning: bypass mode");
  });
});

describe("a failed write to stdout", () => {
  const full = "synapse: cannot write the output: no space left on device\n";

  test.each([
    ["a run", "hi"],
    ["a json run", "-o json hi"],
    ["--help", "--help"],
    ["--version", "--version"],
    ["synapse sessions -o json", "sessions -o json"],
    ["synapse compact -o json", "compact -o json"],
  ])("%s into /dev/full: one plain line, exit 1", async (_name, args) => {
    const fake = await serve(() => ({ text: "an answer" }));
    const r = await shellRun(args, "> /dev/full", providerEnv(fake.url));
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: full });
  });

  test.each([["--help"], ["--version"]])("%s into a reader that goes away: exit 0, nothing on stderr", async (args) => {
    const r = await shellRun(args, "| true");
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  });
});

describe("the README's samples are what the binary does", () => {
  test("-o json: the sample result has the same fields, stats included, as a real one", async () => {
    const sample = JSON.parse(/`-o json` prints one object at the end:\n\n```json\n([\s\S]*?)```/.exec(README)![1]!);
    const fake = await serve([{ text: "README.md describes it" }]);
    // The sample is of a model with a price (total_cost_usd is there only then).
    const r = await runBinary({
      args: ["-o", "json", "summarise"],
      env: { ...providerEnv(fake.url), SYNAPSE_PRICE: "3,15" },
    });
    const real = JSON.parse(r.stdout);
    expect(Object.keys(sample).sort()).toEqual(Object.keys(real).sort());
    expect(Object.keys(sample.stats).sort()).toEqual(Object.keys(real.stats).sort());
    expect(Object.keys(sample.stats.cost).sort()).toEqual(Object.keys(real.stats.cost).sort());
    expect(Object.keys(sample.usage).sort()).toEqual(Object.keys(real.usage).sort());
  });

  test("/help lists exactly the commands and aliases of the README's table", async () => {
    const r = await runBinary({ stdin: "/help", env: providerEnv("http://127.0.0.1:9") });
    expect(r.code).toBe(0);
    const helped = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("  /"))
      .flatMap((l) => {
        const aliases = /\(also ([^)]*)\)/.exec(l)?.[1]?.split(/,\s*/) ?? [];
        return [l.trim().split(/\s/)[0]!, ...aliases];
      });
    const table = README.slice(README.indexOf("**Slash commands**"));
    const rows = table
      .slice(0, table.indexOf("\n\n", table.indexOf("| command |")))
      .split("\n")
      .filter((l) => l.startsWith("| `/"));
    const documented = rows.flatMap((row) => [...row.split(" | ")[0]!.matchAll(/`(\/[\w?-]+)/g)].map((m) => m[1]!));
    expect(helped.sort()).toEqual(documented.sort());
    expect(helped).toContain("/?");
    expect(helped).toContain("/new");
  });

  test("identical output lines are collapsed only where the marker is shorter: five `same` stay five", async () => {
    const bash = (command: string): ScriptedReply => ({ toolCalls: [{ name: "Bash", input: { command } }] });
    const fake = await serve([
      bash("for i in 1 2 3 4 5; do echo same; done"),
      bash("for i in $(seq 300); do echo same; done"),
      { text: "ok" },
    ]);
    const r = await runBinary({ args: ["go"], env: providerEnv(fake.url) });
    expect(r.code).toBe(0);
    const resultOf = (i: number) => JSON.stringify(fake.requests[i]!.body.messages.at(-1).content);
    expect(resultOf(1)).toContain("same\\nsame\\nsame\\nsame\\nsame");
    expect(resultOf(1)).not.toContain("repeated");
    expect(resultOf(2)).toContain("same\\n<previous line repeated 299 additional times>");
  });
});
