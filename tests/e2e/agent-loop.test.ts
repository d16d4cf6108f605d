// The compiled binary's agent loop against the fake server: tools, retries, API errors, signals.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { jsonLines, providerEnv, runBinary, spawnBinary, tempHome } from "../support/binary.ts";
import { havePeerVectors, peerVectorPath } from "../support/peer-vectors.ts";

const SSE = peerVectorPath("sse");

const serve = fakeLLMPerTest();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));

function toolResults(body: any): any[] {
  // Anthropic: tool_result blocks in the last user message; OpenAI: role "tool" messages.
  const out: any[] = [];
  for (const m of body.messages) {
    if (m.role === "tool") out.push({ content: m.content, tool_use_id: m.tool_call_id });
    if (Array.isArray(m.content)) for (const b of m.content) if (b.type === "tool_result") out.push(b);
  }
  return out;
}

describe.each(["anthropic", "openai"] as const)("tool loop (%s)", (provider) => {
  test("reads, edits and writes a real file over several turns", async () => {
    const dir = tmp("synapse-loop-");
    writeFileSync(join(dir, "app.js"), "const greeting = 'helo';\nconsole.log(greeting);\n");
    const s = await serve([
      { text: "Reading.", toolCalls: [{ name: "Read", input: { path: "app.js" } }] },
      { toolCalls: [{ name: "Edit", input: { path: "app.js", old_string: "'helo'", new_string: "'hello'" } }] },
      { toolCalls: [{ name: "Write", input: { path: "NOTES.md", content: "fixed typo\n" } }] },
      { text: "Fixed the typo in app.js." },
    ]);
    const r = await runBinary({ args: ["-o", "json", "-C", dir, "fix the typo"], env: providerEnv(s.url, provider) });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "app.js"), "utf8")).toBe("const greeting = 'hello';\nconsole.log(greeting);\n");
    expect(readFileSync(join(dir, "NOTES.md"), "utf8")).toBe("fixed typo\n");
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ subtype: "success", num_turns: 4, result: "Fixed the typo in app.js." });
    expect(s.requests).toHaveLength(4);
    const firstResult = toolResults(s.requests[1]!.body)[0];
    expect(JSON.stringify(firstResult.content)).toContain("helo");
  });

  test("unknown tool and malformed input come back as errors and the loop goes on", async () => {
    const s = await serve([
      { toolCalls: [{ name: "Teleport", input: { to: "mars" } }] },
      { toolCalls: [{ name: "Read", input: { nopath: 1 } }] },
      { toolCalls: [{ name: "Read", input: {}, rawArguments: '{"path": "x' }] },
      { text: "Giving up." },
    ]);
    const r = await runBinary({ args: ["-o", "json", "go"], env: providerEnv(s.url, provider) });
    expect(r.code).toBe(0);
    expect(s.requests).toHaveLength(4);
    const results = toolResults(s.requests[3]!.body);
    const texts = results.map((b) => JSON.stringify(b.content));
    expect(texts[0]).toContain("Unknown tool");
    expect(texts[1]).toContain("path");
    expect(texts[2]).toContain("not valid JSON");
    if (provider === "anthropic") expect(results.every((b) => b.is_error === true)).toBe(true);
  });
});

describe("turn limit", () => {
  test("--max-turns ends with error_max_turns and exit 1", async () => {
    const s = await serve(() => ({ toolCalls: [{ name: "Glob", input: { pattern: "*.none" } }] }));
    const r = await runBinary({ args: ["-o", "json", "--max-turns", "3", "loop"], env: providerEnv(s.url) });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: "error_max_turns", is_error: true, num_turns: 3 });
    expect(s.requests).toHaveLength(3);
  });
});

describe("API errors and retries", () => {
  test("429 then success: retried with a notice on stderr", async () => {
    const s = await serve([{ status: 429, headers: { "retry-after": "0" } }, { text: "after retry" }]);
    const r = await runBinary({ args: ["hi"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("after retry\n");
    expect(r.stderr).toContain("retrying");
    expect(s.requests).toHaveLength(2);
  });

  test("529 with retry-after is honoured", async () => {
    // With a 1 ms backoff base only the server's hint can make the gap this long; the hint comes in
    // milliseconds so the test does not spend a real second (seconds: tests/llm/retry-delay.test.ts).
    const s = await serve([{ status: 529, headers: { "retry-after-ms": "300" } }, { text: "ok" }]);
    const r = await runBinary({ args: ["hi"], env: { ...providerEnv(s.url), SYNAPSE_RETRY_BASE_MS: "1" } });
    expect(r.code).toBe(0);
    const gap = s.requests[1]!.receivedAt - s.requests[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(295);
  });

  test("401 is not retried and ends with exit 1 and the API's message", async () => {
    const s = await serve([{ status: 401 }, { text: "never" }]);
    const r = await runBinary({ args: ["-o", "json", "hi"], env: providerEnv(s.url) });
    expect(r.code).toBe(1);
    expect(s.requests).toHaveLength(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ subtype: "error_during_execution", is_error: true });
    expect(out.result).toContain("invalid x-api-key");
  });

  test("401 in text mode: one error line on stderr", async () => {
    const s = await serve([{ status: 401 }]);
    const r = await runBinary({ args: ["hi"], env: providerEnv(s.url, "openai") });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error:");
  });

  test("retries exhausted: exit 1", async () => {
    const s = await serve(() => ({ status: 503 }));
    const r = await runBinary({ args: ["hi"], env: { ...providerEnv(s.url), SYNAPSE_MAX_RETRIES: "2" } });
    expect(r.code).toBe(1);
    expect(s.requests).toHaveLength(3);
  });

  test.each(["anthropic", "openai"] as const)(
    "a cut stream is retried and the answer is not duplicated (%s)",
    async (provider) => {
      const s = await serve([{ cut: true, text: "partial answer that gets cut" }, { text: "complete answer" }]);
      const r = await runBinary({ args: ["hi"], env: providerEnv(s.url, provider) });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("complete answer\n");
      expect(s.requests).toHaveLength(2);
    },
  );

  test("a server that never answers, or stalls mid-stream, is abandoned and retried", async () => {
    // The second stalls for good after its first words. The idle limit is what a healthy stream on a
    // loaded machine never comes near, not what a stall is measured against.
    const s = await serve([
      { hang: true },
      { text: "slow stream that stalls", stallAfter: 4 },
      { text: "third time lucky" },
    ]);
    const r = await runBinary({ args: ["hi"], env: { ...providerEnv(s.url), SYNAPSE_STREAM_IDLE_MS: "2000" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("third time lucky\n");
    expect(r.stderr).toContain("stalled");
    expect(s.requests).toHaveLength(3);
  });

  test("a mid-stream overloaded_error is retried", async () => {
    const s = await serve([
      { streamError: { type: "overloaded_error", message: "Overloaded" }, text: "par" },
      { text: "fine" },
    ]);
    const r = await runBinary({ args: ["hi"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("fine\n");
  });
});

// Without ../shared/peer-vectors each test below is reported as skipped, by name.
describe.skipIf(!havePeerVectors("sse"))("real transcripts replayed through the binary", () => {
  test("Anthropic tool-use stream: the unknown get_weather tool gets an error result", async () => {
    const raw = readFileSync(join(SSE, "anthropic-tool-use.sse"), "utf8");
    const s = await serve([{ raw }, { text: "No weather tool here." }]);
    const r = await runBinary({ args: ["-o", "stream-json", "weather?"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const first = lines.find((l) => l.type === "assistant");
    expect(first.message.content[0].text).toBe("Okay, let's check the weather for San Francisco, CA:");
    expect(first.message.content[1]).toMatchObject({
      type: "tool_use",
      name: "get_weather",
      input: { location: "San Francisco, CA" },
    });
    const results = toolResults(s.requests[1]!.body);
    expect(results[0].is_error).toBe(true);
  });

  test("Anthropic text stream and OpenAI captures", async () => {
    const s1 = await serve([{ raw: readFileSync(join(SSE, "anthropic-text.sse"), "utf8") }]);
    const a = await runBinary({ args: ["-o", "json", "hi"], env: providerEnv(s1.url) });
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).result.length).toBeGreaterThan(0);
    await s1.stop();
    const s2 = await serve([{ raw: readFileSync(join(SSE, "openai-text.sse"), "utf8") }]);
    const o = await runBinary({ args: ["-o", "json", "hi"], env: providerEnv(s2.url, "openai") });
    expect(o.code).toBe(0);
    expect(JSON.parse(o.stdout).result.length).toBeGreaterThan(20);
    await s2.stop();
    const s3 = await serve([{ raw: readFileSync(join(SSE, "openai-tool-calls.sse"), "utf8") }, { text: "done" }]);
    const t = await runBinary({ args: ["-o", "json", "hi"], env: providerEnv(s3.url, "openai") });
    expect(t.code).toBe(0);
    expect(toolResults(s3.requests[1]!.body)[0].content).toContain("Unknown tool");
  });

  test("Anthropic mid-stream error transcript is retried", async () => {
    const s = await serve([{ raw: readFileSync(join(SSE, "anthropic-error.sse"), "utf8") }, { text: "recovered" }]);
    const r = await runBinary({ args: ["hi"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("recovered\n");
  });
});

describe("pipes and signals", () => {
  test("synapse … | head -c 10 exits quietly", async () => {
    const s = await serve([{ text: "x".repeat(200_000), chunkDelayMs: 0 }]);
    const home = tempHome();
    const proc = Bun.spawn(
      [
        "bash",
        "-c",
        `"${join(import.meta.dir, "../../dist/synapse")}" hi | head -c 10; echo " status=\${PIPESTATUS[0]}"`,
      ],
      {
        env: { PATH: process.env.PATH!, ...home.env, ...providerEnv(s.url) },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    await proc.exited;
    expect(out).toBe("xxxxxxxxxx status=0\n");
    expect(err).toBe("");
  });

  test.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s while waiting on the model exits %d and saves the session", async (signal, code) => {
    const s = await serve([{ hang: true }]);
    const home = tempHome();
    const proc = spawnBinary({ args: ["-o", "json", "wait for it"], env: { ...home.env, ...providerEnv(s.url) } });
    await s.waitForRequests(1);
    proc.kill(signal);
    const [out, exit] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(exit).toBe(code);
    expect(JSON.parse(out)).toMatchObject({ subtype: "interrupted", is_error: true });
    const sessions = join(home.env.SYNAPSE_HOME!, "sessions");
    const [id] = readdirSync(sessions);
    const archive = readFileSync(join(sessions, id!, "messages.jsonl"), "utf8");
    expect(archive).toContain("wait for it");
    expect(existsSync(join(sessions, id!, "meta.json"))).toBe(true);
  });
});
