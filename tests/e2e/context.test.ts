// The compiled binary against the strict fake: long sessions that never send a malformed request and
// never stop because the context filled (prune, summary, window fallback, reactive retry), the
// autoCondense off switch, and resume from a compaction record, also after kill -9 mid-condense.

import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonLines, providerEnv as serverEnv, runBinary, spawnBinary, tempHome } from "../support/binary.ts";

// These sessions repeat one call hundreds of times on purpose: loop detection stays off here.
const providerEnv = (url: string, provider?: "anthropic" | "openai") => ({
  ...serverEnv(url, provider),
  SYNAPSE_LOOP_LIMIT: "0",
});
import {
  type FakeLLM,
  type FakeOptions,
  type RecordedRequest,
  type ScriptedReply,
  startFakeLLM,
} from "../support/fake-llm.ts";
import { isSummaryRequest } from "../support/summary-request.ts";

const TASK = "TASK-7f3: read big.txt again and again";

let server: FakeLLM | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** A work folder with big.txt of about `bytes` bytes (lines of 79 characters). */
function workDir(bytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), "synapse-ctx-"));
  const line = `${"abcdefghij".repeat(7)}123456789\n`;
  writeFileSync(join(dir, "big.txt"), line.repeat(Math.max(1, Math.round(bytes / line.length))));
  return dir;
}

interface Agent {
  summaries: any[];
  /** Requests whose first message did not carry the task. */
  lostTask: number;
  toolTurns: number;
}

/**
 * The model: calls Read on big.txt `turns` times, then answers. A request that asks for a summary
 * gets `summary(n)` (or what it returns).
 */
function agent(
  turns: number,
  summary: (n: number, req: RecordedRequest) => ScriptedReply = (n) => ({
    text: `SUMMARY ${n}: the agent read big.txt many times.`,
  }),
  /** Characters of assistant text with each tool call: what pruning cannot clear. */
  talk = 0,
) {
  const state: Agent = { summaries: [], lostTask: 0, toolTurns: 0 };
  const script = (req: RecordedRequest): ScriptedReply => {
    if (isSummaryRequest(req.body)) {
      state.summaries.push(req.body);
      return summary(state.summaries.length, req);
    }
    // The first message after the system prompt (OpenAI sends that as a message).
    const first = req.body.messages.find((m: any) => m.role !== "system");
    if (!JSON.stringify(first).includes("TASK-7f3")) state.lostTask++;
    if (state.toolTurns < turns) {
      state.toolTurns++;
      const text = talk
        ? `Turn ${state.toolTurns}: ${"reasoning ".repeat(Math.ceil(talk / 10))}`.slice(0, talk)
        : undefined;
      return { text, toolCalls: [{ name: "Read", input: { path: "big.txt" } }] };
    }
    return { text: "all done" };
  };
  return { state, script };
}

async function serve(script: (req: RecordedRequest) => ScriptedReply, options: FakeOptions = {}): Promise<FakeLLM> {
  server = await startFakeLLM(script, options);
  return server;
}

/** The request for a summary: the last message's text (after the conversation, or the only one). */
function summaryText(body: any): string {
  const last = body.messages.at(-1);
  return last.content.map((b: any) => b.text ?? "").join("");
}

/** A turn's request: it carries tools and does not ask for a summary. */
const turnRequest = (body: any): boolean => Boolean(body?.tools) && !isSummaryRequest(body);

describe("long sessions", () => {
  test("1,200 turns of 20 kB outputs against a 200k-token window run to the end, every request well-formed", async () => {
    const { state, script } = agent(1200);
    const s = await serve(script, { contextWindow: 200_000, recordBodies: false });
    const cwd = workDir(20_000);
    const r = await runBinary({
      args: ["-o", "stream-json", "--max-turns", "1300", TASK],
      cwd,
      env: { ...providerEnv(s.url), SYNAPSE_MODEL: "claude-sonnet-4-5" },
      timeoutMs: 300_000,
    });
    expect(s.rejected).toEqual([]);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const result = lines.at(-1);
    expect(result.subtype).toBe("success");
    expect(result.num_turns).toBe(1201);
    expect(state.lostTask).toBe(0);
    const boundaries = lines.filter((l) => l.subtype === "compact_boundary");
    expect(boundaries.map((b) => b.method)).toContain("prune");
    expect(boundaries.map((b) => b.method)).toContain("summary");
    expect(boundaries.every((b) => b.tokens_after < b.tokens_before && b.trigger === "auto")).toBe(true);
    expect(result.stats.compactions).toBe(boundaries.length);
    // Fewer summaries than one per 34 turns (Claude Code's rate at this size).
    expect(state.summaries.length).toBeGreaterThan(0);
    expect(state.summaries.length).toBeLessThan(1200 / 34);
  }, 320_000);

  for (const provider of ["anthropic", "openai"] as const) {
    test(`${provider}: 600 turns of small outputs with SYNAPSE_STORE_MAX_MESSAGES=100 run to the end and keep the task`, async () => {
      const { state, script } = agent(600);
      const s = await serve(script, { contextWindow: 200_000, recordBodies: false });
      const r = await runBinary({
        args: ["-o", "json", "--max-turns", "700", TASK],
        cwd: workDir(200),
        env: {
          ...providerEnv(s.url, provider),
          SYNAPSE_MODEL: provider === "openai" ? "gpt-4o" : "claude-sonnet-4-5",
          SYNAPSE_STORE_MAX_MESSAGES: "100",
        },
        timeoutMs: 120_000,
      });
      expect(s.rejected).toEqual([]);
      expect(r.code).toBe(0);
      const result = JSON.parse(r.stdout);
      expect(result.num_turns).toBe(601);
      expect(state.lostTask).toBe(0);
      expect(result.stats.compactions).toBeGreaterThan(0);
      expect(result.stats.messages_evicted).toBeGreaterThan(0);
      // Condensed before the in-memory window evicted anything the model still saw: no fallback. (The
      // provider SDK's own notice that the model retires, dated, comes as a warning too: not ours.)
      const ours = r.stderr.split("\n").filter((l) => l.includes("warning") && !l.includes("is deprecated"));
      expect(ours).toEqual([]);
    }, 130_000);
  }

  test("memory pressure: the monitor's trimming and compaction requests never break the conversation", async () => {
    const { state, script } = agent(60, undefined, 500);
    const s = await serve(script, { contextWindow: 200_000 });
    const env = {
      ...providerEnv(s.url),
      SYNAPSE_MEMORY_CRITICAL_MB: "1",
      SYNAPSE_MEMORY_WARN_MB: "1",
      SYNAPSE_MEMORY_CHECK_INTERVAL_MS: "20",
    };
    const r = await runBinary({
      args: ["-o", "json", "--max-turns", "100", TASK],
      cwd: workDir(3_000),
      env,
      timeoutMs: 60_000,
    });
    expect(s.rejected).toEqual([]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.num_turns).toBe(61);
    expect(result.stats.compaction_requested).toBe(true);
    expect(result.stats.compactions).toBeGreaterThan(0);
    expect(state.summaries.length).toBeGreaterThan(0);
    expect(state.lostTask).toBe(0);
  }, 70_000);
});

describe("the summary", () => {
  test("carries the task, the user's words, the conversation itself, and updates the previous summary", async () => {
    const { state, script } = agent(40, undefined, 3000);
    const s = await serve(script, { contextWindow: 30_000 });
    const cwd = workDir(6_000);
    const env = { ...providerEnv(s.url), SYNAPSE_CONTEXT_WINDOW: "30000", SYNAPSE_MAX_TOKENS: "2000" };
    const r = await runBinary({ args: ["-o", "stream-json", "--max-turns", "100", TASK], cwd, env, timeoutMs: 60_000 });
    expect(s.rejected).toEqual([]);
    expect(r.code).toBe(0);
    expect(state.summaries.length).toBeGreaterThanOrEqual(2);
    const first = summaryText(state.summaries[0]);
    expect(first).toContain("<task>\nTASK-7f3: read big.txt again and again\n</task>");
    expect(first).toContain("The user's latest instructions, quoted word for word");
    // The conversation fits: the call repeats the turn's request (tools, messages) to read its cache.
    expect(state.summaries[0].tools.map((t: any) => t.name)).toContain("Read");
    expect(JSON.stringify(state.summaries[0].messages)).toContain('"name":"Read"');
    expect(first).not.toContain("<conversation>");
    const second = summaryText(state.summaries[1]);
    expect(second).toContain("<previous_summary>\nSUMMARY 1:");
    // After a summary, the request starts with the record, then recent whole turns.
    const after = s.requests.filter(
      (q) => turnRequest(q.body) && JSON.stringify(q.body.messages[0]).includes("<summary>"),
    );
    expect(after.length).toBeGreaterThan(0);
    expect(
      jsonLines(r.stdout).some(
        (l) => l.subtype === "compact_boundary" && l.method === "summary" && l.tokens_after < l.tokens_before,
      ),
    ).toBe(true);
  }, 70_000);

  test("a later prompt (-c) is kept verbatim in the record as the user's instruction", async () => {
    const home = tempHome();
    const { script } = agent(15, undefined, 3000);
    const s = await serve(script, { contextWindow: 30_000 });
    const cwd = workDir(6_000);
    const env = { ...home.env, ...providerEnv(s.url), SYNAPSE_CONTEXT_WINDOW: "30000", SYNAPSE_MAX_TOKENS: "2000" };
    expect((await runBinary({ args: ["--max-turns", "100", TASK], cwd, env })).code).toBe(0);
    const { state: state2, script: script2 } = agent(15, undefined, 3000);
    await server!.stop();
    const s2 = await serve(script2, { contextWindow: 30_000 });
    const env2 = { ...env, ...providerEnv(s2.url) };
    expect(
      (await runBinary({ args: ["-c", "--max-turns", "100", "now use INSTRUCTION-42 please"], cwd, env: env2 })).code,
    ).toBe(0);
    expect(s2.rejected).toEqual([]);
    const text = state2.summaries.map(summaryText).join("\n");
    expect(text).toContain("<message>now use INSTRUCTION-42 please</message>");
    const later = s2.requests.filter((q) => turnRequest(q.body)).at(-1)!;
    expect(JSON.stringify(later.body.messages[0])).toContain("now use INSTRUCTION-42 please");
  }, 60_000);
});

describe("fallback and reactive retry", () => {
  test("a failing summary call falls back to the window marker, says so, and the run goes on", async () => {
    const { state, script } = agent(30, () => ({ status: 500 }), 3000);
    const s = await serve(script, { contextWindow: 30_000 });
    const env = {
      ...providerEnv(s.url),
      SYNAPSE_CONTEXT_WINDOW: "30000",
      SYNAPSE_MAX_TOKENS: "2000",
      SYNAPSE_MAX_RETRIES: "0",
    };
    const r = await runBinary({
      args: ["-o", "stream-json", "--max-turns", "100", TASK],
      cwd: workDir(6_000),
      env,
      timeoutMs: 60_000,
    });
    expect(s.rejected).toEqual([]);
    expect(r.code).toBe(0);
    expect(state.summaries.length).toBeGreaterThan(0);
    const lines = jsonLines(r.stdout);
    expect(lines.some((l) => l.subtype === "compact_boundary" && l.method === "window")).toBe(true);
    expect(lines.some((l) => l.subtype === "warning" && /could not summarise the conversation/.test(l.message))).toBe(
      true,
    );
    const marked = s.requests.filter(
      (q) => turnRequest(q.body) && /earlier messages were left out here/.test(JSON.stringify(q.body.messages[0])),
    );
    expect(marked.length).toBeGreaterThan(0);
    expect(state.lostTask).toBe(0);
  }, 70_000);

  test("a summary no smaller than what it replaces falls back too", async () => {
    const { script } = agent(30, () => ({ text: "x ".repeat(40_000) }), 3000);
    const s = await serve(script, { contextWindow: 30_000 });
    const env = { ...providerEnv(s.url), SYNAPSE_CONTEXT_WINDOW: "30000", SYNAPSE_MAX_TOKENS: "2000" };
    const r = await runBinary({
      args: ["-o", "stream-json", "--max-turns", "100", TASK],
      cwd: workDir(6_000),
      env,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    expect(s.rejected).toEqual([]);
    expect(
      jsonLines(r.stdout).some((l) => l.subtype === "warning" && /not smaller than what it replaced/.test(l.message)),
    ).toBe(true);
  }, 70_000);

  for (const provider of ["anthropic", "openai"] as const) {
    test(`${provider}: "too long" from the API condenses and retries`, async () => {
      const { script } = agent(25);
      // The client believes the window is 200k; the server's is 30k.
      const s = await serve(script, { contextWindow: 30_000 });
      const env = {
        ...providerEnv(s.url, provider),
        SYNAPSE_CONTEXT_WINDOW: "200000",
        SYNAPSE_MODEL: provider === "openai" ? "gpt-fake" : "claude-fake",
      };
      // 20 kB a turn: the context outgrows 30k before a prune pays for itself (smaller outputs are
      // pruned early, below the cost model's gap, and would never reach the server's window).
      const r = await runBinary({
        args: ["-o", "stream-json", "--max-turns", "100", TASK],
        cwd: workDir(20_000),
        env,
        timeoutMs: 60_000,
      });
      expect(r.code).toBe(0);
      expect(s.rejected.length).toBeGreaterThan(0);
      expect(s.rejected.every((x) => /too long|maximum context length/.test(x.message))).toBe(true);
      const lines = jsonLines(r.stdout);
      expect(lines.some((l) => l.subtype === "compact_boundary" && l.trigger === "reactive")).toBe(true);
      expect(lines.at(-1).subtype).toBe("success");
    }, 70_000);
  }

  test("a prompt that can never fit: three condenses, then exit 1 with a clear message", async () => {
    const { script } = agent(0);
    const s = await serve(script, { contextWindow: 2_000 });
    const r = await runBinary({
      args: ["-o", "json", `${TASK} ${"y".repeat(20_000)}`],
      cwd: workDir(100),
      env: providerEnv(s.url),
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).result).toMatch(
      /still does not fit the model's context window after condensing it 3 times/,
    );
    expect(s.rejected.length).toBe(4);
  }, 40_000);

  test("autoCondense off: the 400 ends the run naming /compact", async () => {
    const { state, script } = agent(25);
    const s = await serve(script, { contextWindow: 30_000 });
    const env = { ...providerEnv(s.url), SYNAPSE_CONTEXT_WINDOW: "30000", SYNAPSE_AUTO_CONDENSE: "0" };
    const r = await runBinary({
      args: ["-o", "json", "--max-turns", "100", TASK],
      cwd: workDir(6_000),
      env,
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(1);
    expect(state.summaries.length).toBe(0);
    expect(s.rejected.length).toBe(1);
    expect(JSON.parse(r.stdout).result).toMatch(/prompt is too long.*automatic condensing is off.*\/compact/);
  }, 40_000);
});

describe("resume after a condense", () => {
  test("-c sends the record and what followed, not the whole archive", async () => {
    const home = tempHome();
    const cwd = workDir(6_000);
    const { state, script } = agent(40, undefined, 3000);
    const s = await serve(script, { contextWindow: 30_000 });
    const env = { ...home.env, ...providerEnv(s.url), SYNAPSE_CONTEXT_WINDOW: "30000", SYNAPSE_MAX_TOKENS: "2000" };
    expect((await runBinary({ args: ["--max-turns", "100", TASK], cwd, env })).code).toBe(0);
    expect(state.summaries.length).toBeGreaterThan(0);
    const lastBefore = s.requests.filter((q) => turnRequest(q.body)).at(-1)!.body.messages.length;
    await server!.stop();
    const s2 = await serve(() => ({ text: "resumed" }), { contextWindow: 30_000 });
    const r = await runBinary({ args: ["-c", "go on"], cwd, env: { ...env, ...providerEnv(s2.url) } });
    expect(r.code).toBe(0);
    expect(s2.rejected).toEqual([]);
    const sent = s2.requests[0]!.body.messages;
    expect(sent[0].content[0].text).toContain("<summary>\nSUMMARY");
    expect(JSON.stringify(sent[0])).toContain("TASK-7f3");
    // What the last request of the first run held, its answer and the new prompt: nothing older.
    expect(sent.length).toBeLessThanOrEqual(lastBefore + 2);
    expect(JSON.stringify(sent.at(-1))).toContain("go on");
  }, 60_000);

  test("kill -9 during a summary call leaves a session that resumes well-formed", async () => {
    const home = tempHome();
    const cwd = workDir(6_000);
    let asked: () => void = () => undefined;
    const summaryAsked = new Promise<void>((resolve) => (asked = resolve));
    const { script } = agent(
      40,
      () => {
        asked();
        return { hang: true };
      },
      3000,
    );
    const s = await serve(script, { contextWindow: 30_000 });
    const env = { ...home.env, ...providerEnv(s.url), SYNAPSE_CONTEXT_WINDOW: "30000", SYNAPSE_MAX_TOKENS: "2000" };
    const proc = spawnBinary({ args: ["--max-turns", "100", TASK], cwd, env });
    await summaryAsked;
    proc.kill("SIGKILL");
    await proc.exited;
    await server!.stop();
    const { state, script: script2 } = agent(30, undefined, 3000);
    const s2 = await serve(script2, { contextWindow: 30_000 });
    const r = await runBinary({
      args: ["-c", "--max-turns", "100", "continue"],
      cwd,
      env: { ...env, ...providerEnv(s2.url) },
      timeoutMs: 60_000,
    });
    expect(r.stderr).not.toMatch(/error|warning/i);
    expect(r.code).toBe(0);
    expect(s2.rejected).toEqual([]);
    expect(state.lostTask).toBe(0);
    expect(state.summaries.length).toBeGreaterThan(0);
  }, 70_000);
});
