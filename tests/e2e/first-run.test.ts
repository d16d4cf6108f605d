// What a new user meets first, through the compiled binary: no turn cap stopping real work half-way,
// errors that name what to fix (the URL refused, the flag or variable at fault).

import { describe, expect, test } from "bun:test";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let server: FakeLLM | undefined;

describe("first runs", () => {
  test("no default turn cap: 60 tool turns then an answer succeed without --max-turns", async () => {
    // Real work: each call differs (the same call over and over is a loop, stopped: loop-detect.test.ts).
    server = await serve((_req, i) =>
      i < 60 ? { toolCalls: [{ name: "Glob", input: { pattern: `nothing-${i}-*` } }] } : { text: "done" },
    );
    const r = await runBinary({ args: ["-q", "-o", "json", "work"], env: providerEnv(server.url) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: "success", num_turns: 61, result: "done" });
  }, 60_000);

  test("--max-turns still caps a run when given", async () => {
    server = await serve(() => ({ toolCalls: [{ name: "Glob", input: { pattern: "nothing-*" } }] }));
    const r = await runBinary({ args: ["-q", "-o", "json", "--max-turns", "3", "work"], env: providerEnv(server.url) });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: "error_max_turns", num_turns: 3 });
  });

  for (const provider of ["anthropic", "openai"] as const) {
    test(`${provider}: a refused connection names the URL`, async () => {
      const r = await runBinary({
        args: ["hi"],
        env: { ...providerEnv("http://127.0.0.1:9", provider), SYNAPSE_MAX_RETRIES: "0" },
      });
      expect(r.code).toBe(1);
      const url =
        provider === "anthropic" ? "http://127.0.0.1:9/v1/messages" : "http://127.0.0.1:9/v1/chat/completions";
      expect(r.stderr).toContain(`connection failed to ${url}`);
    });
  }

  test("--max-turns -1: one clear line, exit 2", async () => {
    const r = await runBinary({ args: ["--max-turns", "-1", "hi"] });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('synapse: --max-turns takes a positive number (got "-1")\n');
  });

  test("SYNAPSE_MAX_TOKENS=1e9 is refused before anything is sent", async () => {
    server = await serve([{ text: "never" }]);
    const r = await runBinary({ args: ["hi"], env: { ...providerEnv(server.url), SYNAPSE_MAX_TOKENS: "1e9" } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("SYNAPSE_MAX_TOKENS must be a whole number from 1 to 1000000");
    expect(server.requests).toHaveLength(0);
  });
});
