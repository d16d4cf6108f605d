// What a long session costs: the compiled binary over 600 turns of 20 kB tool output with a
// 200k-token window, against the strict fake whose usage reports prompt-cache reads and writes as
// the Anthropic API bills them (prefix match against earlier requests' breakpoints, 5-minute life).
// First checks the work: all 600 turns done, every turn request still carrying the task, nothing
// refused. Then prints billed input (uncached + 1.25 × writes + 0.1 × reads, in input tokens), the
// cache hit rate, dollars at Claude Sonnet's list price, and the summary calls.
//   bun bench/cost.ts [turns] [binary]     (binary: default dist/synapse; an older build to compare)
//   COST_LOG=1 bun bench/cost.ts            (also one line per summary call and per request that missed
//                                            input an earlier request had sent)

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { type RecordedRequest, type ScriptedReply, startFakeLLM } from "../tests/support/fake-llm.ts";
import { isSummaryRequest } from "../tests/support/summary-request.ts";
import { measure } from "./measure.ts";

const WINDOW = 200_000;
/** Claude Sonnet 4.5, dollars per million tokens. */
const PRICE = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };

export async function main(turns = 600, binary = BINARY) {
  const dir = mkdtempSync(join(tmpdir(), "synapse-cost-"));
  // 20 kB of distinct lines.
  writeFileSync(
    join(dir, "out.txt"),
    Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(44, "0")}\n`).join(""),
  );
  let toolTurns = 0;
  let summaryCalls = 0;
  let lostTask = 0;
  let outputTokens = 0;
  const kinds: string[] = [];
  const script = (req: RecordedRequest): ScriptedReply => {
    // Summary calls carry the turn's tools and messages too (to read its cache): told by their request.
    if (isSummaryRequest(req.body)) {
      summaryCalls++;
      kinds.push("summary");
      const text = `SUMMARY ${summaryCalls}: the agent has read out.txt ${toolTurns} times; nothing else changed.`;
      outputTokens += Math.ceil(text.length / 4);
      return { text };
    }
    if (!JSON.stringify(req.body.messages[0]).includes("TASK-bench")) lostTask++;
    kinds.push("turn");
    outputTokens += 20;
    if (toolTurns < turns) {
      toolTurns++;
      return { toolCalls: [{ name: "Bash", input: { command: "cat out.txt" } }] };
    }
    return { text: "done" };
  };
  const server = await startFakeLLM(script, { contextWindow: WINDOW, recordBodies: false });
  const home = tempHome();
  const env = {
    SYNAPSE_MODEL: "claude-sonnet-4-5",
    // The same call hundreds of times is the workload here, not a runaway loop: detection off.
    SYNAPSE_LOOP_LIMIT: "0",
    ...home.env,
    ...providerEnv(server.url),
  };
  const args = [
    binary,
    "-o",
    "json",
    "-y",
    "--max-turns",
    String(turns + 10),
    "-C",
    dir,
    "TASK-bench: cat out.txt until told to stop",
  ];
  const run = await measure(args, { env });
  await server.stop();
  const result = JSON.parse(run.stdout.trim() || "{}");
  // Checked before any figure is printed.
  if (result.subtype !== "success" || result.num_turns !== turns + 1)
    throw new Error(`session failed: ${run.stdout.slice(0, 300)} ${run.stderr.slice(0, 300)}`);
  if (toolTurns !== turns) throw new Error(`${toolTurns} of ${turns} tool turns were done`);
  if (server.rejected.length)
    throw new Error(`malformed or too-long requests: ${JSON.stringify(server.rejected.slice(0, 3))}`);
  if (lostTask) throw new Error(`${lostTask} requests did not carry the task`);
  if (process.env.COST_LOG) logMisses(server.requests, kinds);
  // The summary calls' own input, and how much of it they read from the cache.
  const summaries = server.requests.filter((_, i) => kinds[i] === "summary").map((r) => r.cache);
  const summaryInput = summaries.reduce((n, u) => n + (u ? u.read + u.write + u.uncached : 0), 0);
  const summaryRead = summaries.reduce((n, u) => n + (u?.read ?? 0), 0);
  const c = server.cache.totals;
  const input = c.uncached + c.read + c.write;
  const billed = c.uncached + 1.25 * c.write + 0.1 * c.read;
  const usd =
    (c.uncached * PRICE.input + c.write * PRICE.cacheWrite + c.read * PRICE.cacheRead + outputTokens * PRICE.output) /
    1e6;
  return {
    binary,
    turns,
    requests: c.requests,
    summaryCalls,
    summaryInput,
    summaryRead,
    inputTokens: input,
    cacheRead: c.read,
    cacheWrite: c.write,
    uncached: c.uncached,
    billedInput: Math.round(billed),
    hitRate: c.read / input,
    // Of the prompt tokens a cache could have served (all but those sent for the first time).
    repeatHitRate: c.read / (input - c.fresh),
    usd,
    wallMs: Math.round(run.wallMs),
  };
}

/**
 * One line per summary call and per request that did not read all the input an earlier request had
 * sent (its misses), the turns that read everything folded into a count, so the causes of misses show.
 */
function logMisses(requests: RecordedRequest[], kinds: string[]) {
  let clean = 0;
  const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
  for (const [i, r] of requests.entries()) {
    const u = r.cache;
    if (!u) continue;
    const total = u.read + u.write + u.uncached;
    const missed = total - u.read - (u.fresh ?? 0);
    if (missed <= 0 && kinds[i] !== "summary") {
      clean++;
      continue;
    }
    if (clean) console.log(`  ${clean} requests read all repeat input`);
    clean = 0;
    const parts = `read ${k(u.read)} write ${k(u.write)} uncached ${k(u.uncached)} fresh ${k(u.fresh ?? 0)}`;
    console.log(`#${i} ${kinds[i]}: ${k(total)} in, ${parts}, missed ${k(missed)}`);
  }
  if (clean) console.log(`  ${clean} requests read all repeat input`);
}

if (import.meta.main) {
  const r = await main(Number(process.argv[2] ?? 600), process.argv[3] ?? BINARY);
  const m = (n: number) => `${(n / 1e6).toFixed(2)}M`;
  const done = `${r.turns} turns done with the task in every request`;
  console.log(`binary ${r.binary}: ${done}; ${r.requests} requests, ${r.summaryCalls} summary calls`);
  console.log(`summary calls: ${m(r.summaryInput)} tokens of input, ${m(r.summaryRead)} of them cache reads`);
  const split = `${m(r.cacheRead)} cache reads, ${m(r.cacheWrite)} writes, ${m(r.uncached)} uncached`;
  console.log(`input ${m(r.inputTokens)} tokens: ${split}`);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(`billed input ${m(r.billedInput)} tokens; $${r.usd.toFixed(2)} at Sonnet prices; ${r.wallMs} ms`);
  console.log(`cache hit rate ${pct(r.hitRate)} of all input, ${pct(r.repeatHitRate)} of input sent before`);
}
