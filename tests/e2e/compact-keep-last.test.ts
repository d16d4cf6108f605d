// `/compact --keep-last N` and a compact that cannot shrink, through the compiled binary: what was
// kept is said, what starts is said when it starts, unknown options are usage errors (never focus
// text), and a failed condense exits 1 with the session unchanged.

import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { isSummaryRequest } from "../support/summary-request.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let fake: FakeLLM | undefined;
const isSummary = (body: any) => isSummaryRequest(body);
const posts = () => fake!.requests.filter((r) => r.path === "/v1/messages");

/** A session with `prompts` exchanges; summary calls answered by `onSummary`. */
async function sessionWith(prompts: number, answer: (i: number) => string, onSummary: () => any) {
  let turn = 0;
  fake = await serve((req) => (isSummary(req.body) ? onSummary() : { text: answer(turn++) }));
  const home = tempHome();
  const env = { ...home.env, ...providerEnv(fake.url) };
  for (let i = 0; i < prompts; i++)
    expect((await runBinary({ stdin: `question ${i}`, args: i ? ["-c"] : [], env, cwd: home.dir })).code).toBe(0);
  const archive = () => {
    const root = join(home.env.SYNAPSE_HOME!, "sessions");
    const [id] = readdirSync(root);
    return readdirSync(join(root, id!))
      .filter((n) => n.startsWith("messages"))
      .map((n) => readFileSync(join(root, id!, n), "utf8"))
      .join("");
  };
  return { env, home, archive };
}

describe("/compact --keep-last N", () => {
  test("keeps the last N turns, says so, and says what starts when it starts", async () => {
    const { env, home, archive } = await sessionWith(
      6,
      (i) => `answer ${i} ${"lorem ipsum ".repeat(300)}`,
      () => ({ text: "SUMMARY" }),
    );
    const run = await runBinary({ stdin: "/compact --keep-last 2", args: ["-c"], env, cwd: home.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^compacted: \d+(\.\d)?k → \d+(\.\d)?k tokens, kept the last 2 turns\n$/);
    expect(run.stderr).toMatch(/compacting: summarising \d+ earlier messages, keeping the last 2 turns whole/);
    // The focus was not "--keep-last 2": the summary prompt has no focus at all.
    expect(JSON.stringify(posts().filter((r) => isSummary(r.body))[0]!.body)).not.toContain("focus on");
    const lines = archive()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const at = lines.findLastIndex((m) => m.compaction);
    expect(lines.slice(at + 1).map((m) => m.content[0].text.split(" ").slice(0, 2).join(" "))).toEqual([
      "question 5",
      "answer 5",
    ]);
  }, 60_000);

  test("an unknown option is a usage error (exit 2), not focus text, and reaches no model", async () => {
    const { env, home } = await sessionWith(
      3,
      (i) => `answer ${i}`,
      () => ({ text: "SUMMARY" }),
    );
    const before = posts().length;
    const run = await runBinary({ stdin: "/compact --keep 5", args: ["-c"], env, cwd: home.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("/compact: unknown option --keep (usage: /compact [--keep-last N] [focus])");
    expect(posts().length).toBe(before);
  }, 60_000);
});

describe("a compact that cannot shrink the context", () => {
  test("the summary fails and keeping nothing would not be smaller: exit 1, says why, session unchanged", async () => {
    const refuse = () => ({
      status: 400,
      body: { type: "error", error: { type: "invalid_request_error", message: "no" } },
    });
    const { env, home, archive } = await sessionWith(2, () => "ok", refuse);
    const before = archive();
    const run = await runBinary({ stdin: "/compact --keep-last 0", args: ["-c"], env, cwd: home.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("compact failed:");
    expect(run.stderr).toContain("would not make the context smaller");
    expect(archive()).toBe(before);
  }, 60_000);
});
