// `synapse doctor` through the compiled binary: the provider check makes one real GET /v1/models
// and reports the URL and the outcome (answered, HTTP status, refused connection).

import { describe, expect, test } from "bun:test";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let server: FakeLLM | undefined;

function providerLine(stdout: string): string {
  return stdout.split("\n").find((l) => l.includes(" provider: ")) ?? "";
}

describe("synapse doctor: the provider check", () => {
  for (const provider of ["anthropic", "openai"] as const) {
    test(`${provider}: one GET of the models endpoint, with the key, reported with its URL`, async () => {
      server = await serve([], {
        apiKey: "test-key",
        models: [{ id: provider === "anthropic" ? "claude-sonnet-5-5" : "gpt-5.4" }, { id: "other" }],
      });
      const r = await runBinary({ args: ["doctor"], env: providerEnv(server.url, provider) });
      const line = providerLine(r.stdout);
      const url = provider === "anthropic" ? `${server.url}/v1/models` : `${server.url}/v1/models`;
      expect(line).toStartWith("ok ");
      expect(line).toContain(url);
      expect(line).toContain("2 models");
      expect(server.requests.map((q) => q.path)).toEqual(["/v1/models"]);
      expect(server.requests[0]!.provider).toBe(provider);
      expect(r.code).toBe(0);
    });
  }

  test("a wrong key: FAIL with the HTTP status and the URL, exit 1", async () => {
    server = await serve([], { apiKey: "the-right-key" });
    const r = await runBinary({ args: ["doctor"], env: providerEnv(server.url, "anthropic") });
    const line = providerLine(r.stdout);
    expect(line).toStartWith("FAIL");
    expect(line).toContain(`GET ${server.url}/v1/models`);
    expect(line).toContain("401");
    expect(r.code).toBe(1);
  });

  test("an unreachable base URL: FAIL naming the URL, exit 1", async () => {
    // Port 9 (discard) is closed on loopback: the connection is refused at once.
    const r = await runBinary({ args: ["doctor"], env: providerEnv("http://127.0.0.1:9", "openai") });
    const line = providerLine(r.stdout);
    expect(line).toStartWith("FAIL");
    expect(line).toContain("GET http://127.0.0.1:9/v1/models");
    expect(line.toLowerCase()).toMatch(/refused|connect/);
    expect(r.code).toBe(1);
  });
});
