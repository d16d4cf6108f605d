// A turn cut at the output limit (Anthropic stop_reason "max_tokens", OpenAI finish_reason
// "length"), through the compiled binary: the model is told in the cut call's result, the user on
// stderr and in json's stop_reason, and a cut final answer is not reported as a success.

import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let server: FakeLLM | undefined;

function toolResultText(body: any): string {
  const last = body.messages[body.messages.length - 1];
  // Anthropic: a user message of tool_result blocks; OpenAI: role "tool" messages.
  if (last.role === "tool") return String(last.content);
  return last.content
    .map((b: any) =>
      typeof b.content === "string" ? b.content : (b.content ?? []).map((c: any) => c.text ?? "").join(""),
    )
    .join("\n");
}

describe("the output limit", () => {
  for (const provider of ["anthropic", "openai"] as const) {
    test(`${provider}: a tool call cut mid-JSON comes back with a note to write smaller pieces; stderr says so`, async () => {
      server = await serve([
        {
          toolCalls: [{ name: "Write", input: {}, rawArguments: '{"path":"big.txt","content":"aaaa' }],
          stopReason: "max_tokens",
        },
        { text: "I will write it in pieces." },
      ]);
      const home = tempHome();
      const r = await runBinary({
        args: ["write big.txt"],
        env: { ...home.env, ...providerEnv(server.url, provider), SYNAPSE_MAX_TOKENS: "300" },
        cwd: home.dir,
      });
      expect(r.code).toBe(0);
      expect(server.requests).toHaveLength(2);
      const result = toolResultText(server.requests[1]!.body);
      expect(result).toContain("not valid JSON");
      expect(result).toContain("output limit of 300 tokens");
      expect(result).toContain("smaller pieces");
      expect(r.stderr).toContain("cut at the output limit (300 tokens");
      // The label shows what the model sent, not the internal key that holds it.
      expect(r.stderr).not.toContain("__invalid_json");
      expect(r.stderr).toContain("invalid JSON: {");
      expect(existsSync(join(home.dir, "big.txt"))).toBe(false);
    });

    test(`${provider}: a final answer cut at the limit exits 1 with subtype error_max_tokens and stop_reason`, async () => {
      server = await serve([{ text: "The first half of a long answ", stopReason: "max_tokens" }]);
      const json = await runBinary({ args: ["-o", "json", "explain"], env: providerEnv(server.url, provider) });
      expect(json.code).toBe(1);
      const result = JSON.parse(json.stdout);
      expect(result).toMatchObject({
        subtype: "error_max_tokens",
        is_error: true,
        stop_reason: "max_tokens",
        result: "The first half of a long answ",
      });

      await server.stop();
      server = await serve([{ text: "The first half of a long answ", stopReason: "max_tokens" }]);
      const text = await runBinary({ args: ["explain"], env: providerEnv(server.url, provider) });
      expect(text.code).toBe(1);
      expect(text.stdout).toBe("The first half of a long answ\n");
      expect(text.stderr).toContain("cut at the output limit");
    });
  }

  test("a normal answer reports its stop_reason and succeeds", async () => {
    server = await serve([{ text: "All of it." }]);
    const r = await runBinary({ args: ["-o", "json", "explain"], env: providerEnv(server.url) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: "success", is_error: false, stop_reason: "end_turn" });
  });
});
