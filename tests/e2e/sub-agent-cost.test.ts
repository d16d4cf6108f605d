// Sub-agents' spend through the compiled binary against the fake, whose replies report fixed usage:
// json `usage`, `total_cost_usd` and `stats.cost` count every sub-agent's turns, and
// `--max-budget-usd` is the whole run's budget, sub-agents included.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";
import type { RecordedRequest, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
const task = (id: string, command: string) => ({ id, name: "Bash", input: { command } });
const MAIN_USAGE = { input_tokens: 1000, output_tokens: 100 };
const SUB_USAGE = { input_tokens: 2000, output_tokens: 200 };
// SYNAPSE_PRICE "3,15": dollars per million input and output tokens.
const usd = (u: { input_tokens: number; output_tokens: number }) => (u.input_tokens * 3 + u.output_tokens * 15) / 1e6;

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "synapse-subcost-"));
  writeFileSync(join(dir, "a.txt"), "a\n");
  return dir;
}

function env(url: string, extra: Record<string, string> = {}) {
  return {
    ...tempHome().env,
    ...providerEnv(url),
    SYNAPSE_MODEL: "claude-sonnet-4-5",
    SYNAPSE_PRICE: "3,15",
    SYNAPSE_LOOP_LIMIT: "0",
    ...extra,
  };
}

describe("sub-agents' spend is the run's", () => {
  test("usage, total_cost_usd and stats.cost count each sub-agent's turns", async () => {
    let mainTurn = 0;
    const fake = await serve((req): ScriptedReply => {
      if (isSub(req)) {
        // Two turns each: a Glob, then the answer.
        if (req.body.messages.length === 1)
          return { toolCalls: [{ name: "Glob", input: { pattern: "*" } }], usage: SUB_USAGE };
        return { text: "found a.txt", usage: SUB_USAGE };
      }
      if (mainTurn++ === 0)
        return {
          toolCalls: [task("toolu_1", "task:explore -p one"), task("toolu_2", "task:explore -p two")],
          usage: MAIN_USAGE,
        };
      return { text: "done", usage: MAIN_USAGE };
    });
    const run = await runBinary({ args: ["-o", "json", "-C", workspace(), "look"], env: env(fake.url) });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.stats.tasks_run).toBe(2);
    expect(fake.requests.filter(isSub)).toHaveLength(4);
    const expected = { input_tokens: 2 * 1000 + 4 * 2000, output_tokens: 2 * 100 + 4 * 200 };
    expect(result.usage.input_tokens).toBe(expected.input_tokens);
    expect(result.usage.output_tokens).toBe(expected.output_tokens);
    expect(result.total_cost_usd).toBeCloseTo(usd(expected), 10);
    expect(result.stats.cost.usd).toBe(result.total_cost_usd);
    expect(result.stats.cost.uncached_input_tokens).toBe(expected.input_tokens);
  });

  test("--max-budget-usd: a sub-agent stops within what is left, and the main run stops before its next request", async () => {
    let mainTurn = 0;
    const fake = await serve((req): ScriptedReply => {
      if (isSub(req)) {
        // Without a budget this sub-agent runs 40 turns: $0.36, far past the budget.
        if (req.body.messages.length < 80)
          return { toolCalls: [{ name: "Glob", input: { pattern: "*" } }], usage: SUB_USAGE };
        return { text: "finally", usage: SUB_USAGE };
      }
      if (mainTurn++ === 0) return { toolCalls: [task("toolu_1", "task:explore -p spend")], usage: MAIN_USAGE };
      return { text: "done", usage: MAIN_USAGE };
    });
    const budget = 0.1;
    const run = await runBinary({
      args: ["-o", "json", "--max-budget-usd", String(budget), "-C", workspace(), "look"],
      env: env(fake.url),
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.subtype).toBe("error_max_budget_usd");
    // The main agent's second request was never sent: the sub-agent's spend left no room for it.
    expect(fake.requests.filter((r) => !isSub(r))).toHaveLength(1);
    const subTurns = fake.requests.filter(isSub).length;
    expect(subTurns).toBeGreaterThan(3);
    expect(subTurns).toBeLessThan(40);
    expect(result.usage.input_tokens).toBe(1000 + subTurns * 2000);
    // At most one turn past it: a request is priced before it is sent, from its estimated input (the
    // fake reports a fixed 2000) and without its output, which is not known in advance.
    expect(result.total_cost_usd).toBeLessThanOrEqual(budget + usd(SUB_USAGE));
    expect(result.total_cost_usd).toBeGreaterThan(budget / 2);
  }, 60_000);
});
