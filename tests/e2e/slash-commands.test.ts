// Headless slash commands and interrupts through the compiled binary, against the strict fake.

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { sessionsRoot } from "../../src/store/paths.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { isSummaryRequest } from "../support/summary-request.ts";
import { jsonLines, providerEnv, runBinary, spawnBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let fake: FakeLLM | undefined;

const MODELS = { models: [{ id: "claude-sonnet-5-5" }, { id: "fake-model-b" }] };
const posts = () => fake!.requests.filter((r) => r.path === "/v1/messages");

describe("headless slash commands", () => {
  test("echo /model | synapse lists the provider's models, the current one marked", async () => {
    fake = await serve([], MODELS);
    const run = await runBinary({ stdin: "/model\n", env: providerEnv(fake.url) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("* claude-sonnet-5-5");
    expect(run.stdout).toContain("  fake-model-b");
    expect(posts()).toHaveLength(0);
  });

  test("an unknown command is a usage error naming the closest one, and reaches no server", async () => {
    fake = await serve([{ text: "never" }], MODELS);
    const run = await runBinary({ stdin: "/modle\n", env: providerEnv(fake.url) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command /modle; did you mean /model?");
    expect(fake.requests).toHaveLength(0);
  });

  test("/model <unknown> is an error, not a silent switch; /model <known> is recorded for the session", async () => {
    fake = await serve([{ text: "first" }], MODELS);
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    expect((await runBinary({ stdin: "hello", env, cwd: home.dir })).code).toBe(0);
    const bad = await runBinary({ stdin: "/model fake-model-c", args: ["-c"], env, cwd: home.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown model fake-model-c");
    const good = await runBinary({ stdin: "/model fake-model-b", args: ["-c", "-o", "json"], env, cwd: home.dir });
    expect(good.code).toBe(0);
    const result = JSON.parse(good.stdout);
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      command: "model",
      result: "model: anthropic/fake-model-b",
    });
    const meta = await Bun.file(join(sessionsRoot(home.env.SYNAPSE_HOME!), result.session_id, "meta.json")).json();
    expect(meta.model).toBe("anthropic/fake-model-b");
  });

  test("a path is a prompt, not a command", async () => {
    fake = await serve([{ text: "it is a hosts file" }], MODELS);
    const run = await runBinary({ stdin: "/etc/hosts what is this?", env: providerEnv(fake.url) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("it is a hosts file");
  });

  test("SIGINT during a long stream exits 130, and --continue then sends a well-formed conversation", async () => {
    fake = await serve([{ text: "chunk ".repeat(2000), chunkDelayMs: 20 }, { text: "resumed fine" }], MODELS);
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    const proc = spawnBinary({ stdin: "tell me a long story", args: ["-o", "stream-json"], env, cwd: home.dir });
    // Wait for the stream to be under way: the first request has arrived and its answer is flowing.
    const reader = proc.stdout.getReader();
    let seen = "";
    await fake.waitForRequests(1);
    // Three text pieces sent: the first has had two pieces' time to reach synapse.
    await fake.waitForStreamed(0, "text_delta", 3);
    proc.kill("SIGINT");
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(await proc.exited).toBe(130);
    const lines = jsonLines(seen);
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "interrupted" });
    const next = await runBinary({ stdin: "go on", args: ["-c"], env, cwd: home.dir });
    expect(next.code).toBe(0);
    expect(next.stdout).toContain("resumed fine");
    const messages = posts()[1]!.body.messages;
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(messages[1].content)).toContain("[interrupted by the user]");
  });
});

describe("headless /compact", () => {
  const isSummary = (body: any) => isSummaryRequest(body);
  const bigAnswer = (i: number) => ({
    text: `answer ${i} ${"lorem ipsum ".repeat(300)}`,
    usage: { input_tokens: 40_000 * (i + 1), output_tokens: 900 },
  });

  async function sessionWithHistory(onSummary: (req: any) => any) {
    let turn = 0;
    fake = await serve((req) => (isSummary(req.body) ? onSummary(req) : bigAnswer(turn++)), MODELS);
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    for (let i = 0; i < 5; i++)
      expect((await runBinary({ stdin: `question ${i}`, args: i ? ["-c"] : [], env, cwd: home.dir })).code).toBe(0);
    return { env, home };
  }

  test("/compact <focus> condenses the latest session with the focus in the summary prompt", async () => {
    const { env, home } = await sessionWithHistory(() => ({
      text: "SUMMARY: the task so far",
      usage: { input_tokens: 3000, output_tokens: 100 },
    }));
    const run = await runBinary({ stdin: "/compact keep the API design", args: ["-c"], env, cwd: home.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^compacted: \d+(\.\d)?k → \d+(\.\d)?k tokens, kept the last \d+ turns?\n$/);
    const summary = posts().filter((r) => isSummary(r.body));
    expect(summary).toHaveLength(1);
    expect(JSON.stringify(summary[0]!.body)).toContain("keep the API design");
    // The next request is built from the summary onward and is well-formed (the fake checks it).
    const next = await runBinary({ stdin: "and now?", args: ["-c"], env, cwd: home.dir });
    expect(next.code).toBe(0);
    expect(JSON.stringify(posts().at(-1)!.body.messages)).toContain("SUMMARY: the task so far");
  }, 30_000);

  test("/compact reports in json", async () => {
    const { env, home } = await sessionWithHistory(() => ({
      text: "SUMMARY",
      usage: { input_tokens: 3000, output_tokens: 100 },
    }));
    const run = await runBinary({ stdin: "/compact", args: ["-c", "-o", "json"], env, cwd: home.dir });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ type: "result", subtype: "success", is_error: false, command: "compact" });
    expect(result.compaction.tokens_before).toBeGreaterThan(result.compaction.tokens_after);
    expect(JSON.stringify(posts().filter((r) => isSummary(r.body))[0]!.body)).not.toContain("keep the API design");
  }, 30_000);

  test("/compact reports in stream-json: the compact_boundary line, then the result", async () => {
    const { env, home } = await sessionWithHistory(() => ({
      text: "SUMMARY",
      usage: { input_tokens: 3000, output_tokens: 100 },
    }));
    const run = await runBinary({ stdin: "/compact", args: ["-c", "-o", "stream-json"], env, cwd: home.dir });
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.find((l) => l.subtype === "compact_boundary")).toMatchObject({ type: "system", trigger: "manual" });
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success", command: "compact" });
  }, 30_000);

  test("SIGINT during /compact exits 130 and leaves the session exactly as it was", async () => {
    const { env, home } = await sessionWithHistory(() => ({ hang: true }));
    const before = posts().length;
    const proc = spawnBinary({ stdin: "/compact", args: ["-c"], env, cwd: home.dir });
    await fake!.waitForRequests(1, undefined, (r) => posts().indexOf(r) >= before && isSummary(r.body));
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    const lastBefore = posts()[before - 1]!.body.messages;
    const next = await runBinary({ stdin: "still there?", args: ["-c"], env, cwd: home.dir });
    expect(next.code).toBe(0);
    const after = posts().at(-1)!.body.messages;
    // Everything that was sent before is sent again, unchanged, followed by the new turn.
    expect(after.slice(0, lastBefore.length + 1).map((m: any) => m.role)).toEqual([
      ...lastBefore.map((m: any) => m.role),
      "assistant",
    ]);
    expect(JSON.stringify(after)).not.toContain("SUMMARY");
    expect(JSON.stringify(after)).toContain("question 0");
  }, 30_000);
});
