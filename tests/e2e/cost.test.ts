// Cost through the compiled binary against the fake whose usage reports prompt-cache reads and
// writes as the API does: json `total_cost_usd` and `stats.cost`, `/cost`, `--max-budget-usd`
// (exit 1, session saved and resumable), the cache breakpoints the fake receives (present,
// never more than 4, one on the compaction record), and summary calls that read the turn's cache.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";
import type { RecordedRequest, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { isSummaryRequest } from "../support/summary-request.ts";

const serve = fakeLLMPerTest();
const marks = (value: unknown) => (JSON.stringify(value).match(/"cache_control"/g) ?? []).length;

/** A workspace with a 20 kB file the scripted model reads again and again. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "synapse-cost-"));
  writeFileSync(
    join(dir, "out.txt"),
    Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(44, "0")}\n`).join(""),
  );
  return dir;
}

/** Reads out.txt `turns` times, then answers. Summary calls get a short summary. */
function reader(turns: number) {
  let done = 0;
  return (req: RecordedRequest): ScriptedReply => {
    if (isSummaryRequest(req.body)) return { text: "SUMMARY: read out.txt several times." };
    if (done++ < turns) return { toolCalls: [{ name: "Read", input: { path: "out.txt" } }] };
    return { text: "finished" };
  };
}

function env(url: string, home: Record<string, string>, extra: Record<string, string> = {}) {
  return { ...home, ...providerEnv(url), SYNAPSE_LOOP_LIMIT: "0", ...extra };
}

describe("dollars in json output", () => {
  test("total_cost_usd and stats.cost from the cache reads and writes the API reported, at SYNAPSE_PRICE", async () => {
    const fake = await serve(reader(3));
    const home = tempHome();
    const run = await runBinary({
      args: ["-o", "json", "-y", "-C", workspace(), "read out.txt"],
      env: env(fake.url, home.env, { SYNAPSE_MODEL: "claude-sonnet-5-5", SYNAPSE_PRICE: "3,15" }),
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    const cost = result.stats.cost;
    const t = fake.cache.totals;
    // The binary's split is the fake's: every request was billed by it.
    expect(cost.cache_read_input_tokens).toBe(t.read);
    expect(cost.cache_creation_input_tokens).toBe(t.write);
    expect(cost.uncached_input_tokens).toBe(t.uncached);
    expect(t.read).toBeGreaterThan(0);
    expect(result.usage.input_tokens).toBe(t.read + t.write + t.uncached);
    const usd = (t.uncached * 3 + t.write * 3.75 + t.read * 0.3 + cost.output_tokens * 15) / 1e6;
    expect(result.total_cost_usd).toBeCloseTo(usd, 10);
    expect(cost.usd).toBe(result.total_cost_usd);
    expect(cost.cache_hit_rate).toBeCloseTo(t.read / result.usage.input_tokens, 10);
    // Claude Code's modelUsage: the same tokens under the model, input as the API counts it (uncached).
    expect(result.modelUsage).toEqual({
      "claude-sonnet-5-5": {
        inputTokens: t.uncached,
        outputTokens: cost.output_tokens,
        cacheReadInputTokens: t.read,
        cacheCreationInputTokens: t.write,
        webSearchRequests: 0,
        costUSD: result.total_cost_usd,
        contextWindow: 200_000,
        maxOutputTokens: 8192,
      },
    });
  });

  test("a model with no price: tokens only, no total_cost_usd", async () => {
    const fake = await serve(reader(1));
    const run = await runBinary({
      args: ["-o", "json", "-y", "-C", workspace(), "read out.txt"],
      env: env(fake.url, tempHome().env, { SYNAPSE_MODEL: "claude-sonnet-5-5" }),
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect("total_cost_usd" in result).toBe(false);
    expect(result.stats.cost.usd).toBeNull();
    expect(result.modelUsage["claude-sonnet-5-5"]).toMatchObject({ costUSD: 0, costBasis: "unknown" });
    expect(result.stats.cost.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  test("duration_api_ms: the time spent in model requests, a slow stream's included", async () => {
    // Two requests, each streamed in chunks 60 ms apart: at least that long in requests.
    const fake = await serve([
      { toolCalls: [{ name: "Bash", input: { command: "true" } }], chunkDelayMs: 60 },
      { text: "done", chunkDelayMs: 60 },
    ]);
    const run = await runBinary({
      args: ["-o", "json", "-y", "-C", workspace(), "go"],
      env: env(fake.url, tempHome().env, {}),
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.duration_api_ms).toBeGreaterThanOrEqual(120);
    expect(result.duration_api_ms).toBeLessThanOrEqual(result.duration_ms);
  });

  test("a bad SYNAPSE_PRICE or --max-budget-usd is a one-line usage error, exit 2", async () => {
    for (const [args, extra, says] of [
      [["--max-budget-usd", "ten", "hi"], {}, "--max-budget-usd must be a number of dollars above 0"],
      [["--max-budget-usd", "0", "hi"], {}, "--max-budget-usd must be a number of dollars above 0"],
      [["hi"], { SYNAPSE_PRICE: "3" }, "SYNAPSE_PRICE must be"],
      [
        ["--max-budget-usd", "1", "hi"],
        { SYNAPSE_MODEL: "claude-unknown" },
        "--max-budget-usd needs a price for claude-unknown: set SYNAPSE_PRICE",
      ],
    ] as const) {
      const run = await runBinary({
        args: [...args],
        env: { ...tempHome().env, ...providerEnv("http://127.0.0.1:9"), ...extra },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(says);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});

describe("/cost", () => {
  test("piped: dollars and tokens; a model without a price says how to set one", async () => {
    const fake = await serve(reader(0));
    const home = tempHome();
    const dir = workspace();
    const base = env(fake.url, home.env, { SYNAPSE_MODEL: "claude-sonnet-5-5" });
    expect((await runBinary({ args: ["-C", dir, "hello"], env: base })).code).toBe(0);
    const unpriced = await runBinary({ args: ["-c", "-C", dir], stdin: "/cost", env: base });
    expect(unpriced.code).toBe(0);
    expect(unpriced.stdout).toContain(
      'cost:   unknown (no price known for this model: set SYNAPSE_PRICE="input,output"',
    );
    expect(unpriced.stdout).toContain("input:  0 tokens");
    const priced = await runBinary({
      args: ["-c", "-C", dir],
      stdin: "/cost",
      env: { ...base, SYNAPSE_PRICE: "3,15" },
    });
    expect(priced.stdout).toContain("cost:   $0.0000");
  });
});

describe("--max-budget-usd", () => {
  test("stops before the request that would pass it: exit 1, session saved, and -c resumes it", async () => {
    const fake = await serve(reader(1000));
    const home = tempHome();
    const dir = workspace();
    const base = env(fake.url, home.env, { SYNAPSE_MODEL: "claude-sonnet-4-5" });
    // Each turn adds ~5k tokens of output: a few cents' budget lasts a few turns at Sonnet's price.
    const run = await runBinary({
      args: ["-o", "json", "-y", "--max-budget-usd", "0.05", "-C", dir, "read out.txt forever"],
      env: base,
    });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.subtype).toBe("error_max_budget_usd");
    expect(result.is_error).toBe(true);
    expect(result.total_cost_usd).toBeLessThanOrEqual(0.05);
    expect(result.num_turns).toBeGreaterThan(1);
    expect(run.stderr).toContain("error: stopped before the next request: it would pass the budget of $0.05");
    // Exactly as many model requests as turns: the one that would pass was never sent.
    expect(fake.requests.filter((r) => r.body?.tools).length).toBe(result.num_turns);
    const before = fake.requests.length;
    const again = await runBinary({
      args: ["-o", "json", "-y", "--max-turns", "1", "-c", "-C", dir, "stop now"],
      env: base,
    });
    expect(JSON.parse(again.stdout).session_id).toBe(result.session_id);
    // The strict fake took the resumed conversation: every tool call has its result.
    expect(fake.rejected).toEqual([]);
    const resumed = fake.requests[before]!.body;
    expect(resumed.messages.length).toBeGreaterThan(2 * result.num_turns);
  });
});

describe("--max-budget-usd before the first request", () => {
  test("a budget the first request would pass: nothing is sent, exit 1, and the session resumes well-formed", async () => {
    const fake = await serve(reader(1));
    const home = tempHome();
    const dir = workspace();
    const base = env(fake.url, home.env, { SYNAPSE_MODEL: "claude-sonnet-4-5" });
    const run = await runBinary({
      args: ["-o", "json", "--max-budget-usd", "0.000001", "-C", dir, "first prompt"],
      env: base,
    });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: "error_max_budget_usd", num_turns: 0, is_error: true });
    expect(fake.requests).toHaveLength(0);
    const again = await runBinary({ args: ["-o", "json", "-y", "-c", "-C", dir, "second prompt"], env: base });
    expect(again.code).toBe(0);
    expect(fake.rejected).toEqual([]);
    const sent = JSON.stringify(fake.requests[0]!.body.messages);
    expect(sent.indexOf("first prompt")).toBeLessThan(sent.indexOf("second prompt"));
  });
});

describe("cache breakpoints on the wire", () => {
  test("every request carries some and at most 4; after /compact one sits on the compaction record", async () => {
    const fake = await serve(reader(4));
    const home = tempHome();
    const dir = workspace();
    const base = env(fake.url, home.env, { SYNAPSE_MODEL: "claude-sonnet-4-5" });
    expect((await runBinary({ args: ["-y", "-C", dir, "read out.txt"], env: base })).code).toBe(0);
    const compact = await runBinary({ args: ["-c", "-C", dir], stdin: "/compact", env: base });
    expect(compact.code).toBe(0);
    expect((await runBinary({ args: ["-y", "-c", "-C", dir, "and once more"], env: base })).code).toBe(0);
    expect(fake.rejected).toEqual([]);
    for (const r of fake.requests) {
      expect(marks(r.body)).toBeGreaterThan(0);
      expect(marks(r.body)).toBeLessThanOrEqual(4);
    }
    const last = fake.requests.at(-1)!.body;
    expect(marks(last)).toBe(4);
    // The system prompt's breakpoint caches the tools before it.
    expect(marks(last.tools)).toBe(0);
    expect(marks(last.system)).toBe(1);
    expect(JSON.stringify(last.messages[0])).toContain("cache_control");
    expect(JSON.stringify(last.messages.at(-1))).toContain("cache_control");
  });
});

describe("condensing that keeps the cache warm", () => {
  test("prunes come in big steps below the threshold, and between them no earlier message changes", async () => {
    const turns = 40;
    const fake = await serve(reader(turns));
    const home = tempHome();
    const base = env(fake.url, home.env, { SYNAPSE_MODEL: "claude-sonnet-4-5" });
    const run = await runBinary({
      args: ["-o", "stream-json", "-y", "-C", workspace(), "read out.txt"],
      env: base,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    const prunes = lines.filter((l) => l.subtype === "compact_boundary");
    expect(prunes.length).toBeGreaterThan(0);
    for (const p of prunes) {
      expect(p.method).toBe("prune");
      // Well below the threshold ((200k - 8k) x 80% = 153k), and down to a low-water mark.
      expect(p.tokens_before).toBeLessThan(100_000);
      expect(p.tokens_after).toBeLessThan(p.tokens_before / 2);
    }
    // Each request's messages begin with the previous request's, byte for byte, except right after a
    // prune: so the cache is re-written only once per prune.
    const turnsSent = fake.requests
      .filter((r) => r.body?.tools && !isSummaryRequest(r.body))
      .map((r) =>
        r.body.messages.map((m: unknown) => JSON.stringify(m).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "")),
      );
    let changed = 0;
    for (let i = 1; i < turnsSent.length; i++) {
      const before = turnsSent[i - 1]!;
      if (before.some((m: string, j: number) => turnsSent[i]![j] !== m)) changed++;
    }
    expect(changed).toBe(prunes.length);
    expect(turnsSent.length).toBe(turns + 1);
    // The system prompt and tools are the same bytes in every request of the session.
    const heads = new Set(
      fake.requests.filter((r) => r.body?.tools).map((r) => JSON.stringify([r.body.system, r.body.tools])),
    );
    expect(heads.size).toBe(1);
  });

  for (const provider of ["anthropic", "openai"] as const) {
    test(`${provider}: a summary call repeats the last turn's request and reads it from the cache`, async () => {
      const fake = await serve(reader(8));
      const home = tempHome();
      // A store of 12 messages at most: past three quarters of it, the context is summarised.
      const model = provider === "anthropic" ? "claude-sonnet-4-5" : "gpt-5";
      const extra = { ...providerEnv(fake.url, provider), SYNAPSE_MODEL: model, SYNAPSE_STORE_MAX_MESSAGES: "12" };
      const run = await runBinary({
        args: ["-o", "json", "-y", "-C", workspace(), "read out.txt"],
        env: env(fake.url, home.env, extra),
        timeoutMs: 60_000,
      });
      expect(run.code).toBe(0);
      expect(fake.rejected).toEqual([]);
      const at = fake.requests.findIndex((r) => r.body && isSummaryRequest(r.body));
      expect(at).toBeGreaterThan(0);
      const [turn, summary] = [fake.requests[at - 1]!, fake.requests[at]!];
      // The same system prompt, tools and messages as the turn before, then the request for a summary.
      expect(JSON.stringify([summary.body.system, summary.body.tools])).toBe(
        JSON.stringify([turn.body.system, turn.body.tools]),
      );
      const bare = (m: unknown) => JSON.stringify(m).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "");
      expect(summary.body.messages.slice(0, turn.body.messages.length).map(bare)).toEqual(turn.body.messages.map(bare));
      expect(summary.body.prompt_cache_key).toBe(turn.body.prompt_cache_key);
      // Everything the turn before had in the cache was read, not written again.
      if (provider === "anthropic")
        expect(summary.cache!.read).toBeGreaterThanOrEqual(turn.cache!.read + turn.cache!.write);
      else expect(summary.cache!.read).toBeGreaterThan(turn.cache!.read);
      expect(JSON.parse(run.stdout).result).toBe("finished");
    });
  }
});
