// Context that never overflows: the compiled binary over 1,200 turns of 20 kB tool outputs against
// the strict fake with a 200k-token window, against a 100-turn run: wall time, peak RSS, summary
// calls and their tokens, and time between turns (end of one response → next request), whole and
// less the tool call's own run, over the first and last 100 turns. Every request is checked
// well-formed before figures print.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { type RecordedRequest, type ScriptedReply, startFakeLLM } from "../tests/support/fake-llm.ts";
import { promptTokens } from "../tests/support/fake-llm-validate.ts";
import { isSummaryRequest } from "../tests/support/summary-request.ts";
import { buildContext } from "../src/context/context.ts";
import { AnthropicBodyBuilder } from "../src/llm/anthropic-body.ts";
import { toAnthropicParams } from "../src/llm/anthropic-wire.ts";
import type { ModelRequest } from "../src/llm/types.ts";
import type { Message } from "../src/protocol/message.ts";
import { measure } from "./measure.ts";

const WINDOW = 200_000;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
}

async function session(turns: number, dir: string) {
  let toolTurns = 0;
  let summaryCalls = 0;
  let summaryTokens = 0;
  let lostTask = 0;
  // Requests that ask for a summary are summary calls (they carry the turn's tools too); the others turns.
  const kinds: Array<"turn" | "summary"> = [];
  const script = (req: RecordedRequest): ScriptedReply => {
    if (isSummaryRequest(req.body)) {
      summaryCalls++;
      kinds.push("summary");
      const text = `SUMMARY ${summaryCalls}: the agent has read out.txt ${toolTurns} times; nothing else changed.`;
      summaryTokens += promptTokens(req.body) + Math.ceil(text.length / 4);
      return { text };
    }
    kinds.push("turn");
    if (!JSON.stringify(req.body.messages[0]).includes("TASK-bench")) lostTask++;
    if (toolTurns < turns) {
      toolTurns++;
      return { toolCalls: [{ name: "Bash", input: { command: "cat out.txt" } }] };
    }
    return { text: "done" };
  };
  const server = await startFakeLLM(script, { contextWindow: WINDOW, recordBodies: false });
  const home = tempHome();
  // SYNAPSE_* and BUN_JSC_* variables set for the bench reach the binary (window sizes, JIT tiers).
  const own = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k.startsWith("SYNAPSE_") || k.startsWith("BUN_JSC_")),
  ) as Record<string, string>;
  // The same call hundreds of times is the workload here, not a runaway loop: detection off.
  const env = {
    SYNAPSE_MODEL: "claude-sonnet-4-5",
    SYNAPSE_LOOP_LIMIT: "0",
    ...own,
    ...home.env,
    ...providerEnv(server.url),
  };
  // stream-json, so each turn's tool call can be timed apart: its `tool_use` line is written as the
  // call starts and its `user` line once the result is in. Both reach us through the same pipe, so
  // their difference is the tool's run (the Bash tool: bash runs `cat`, output collected).
  const lines: Array<{ type: string; at: number }> = [];
  let pending = "";
  const onStdout = (text: string, at: number) => {
    pending += text;
    for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      // The type is all we need; the `user` lines carry 20 kB each.
      const type = /^\{"type":"([a-z_]+)"/.exec(line)?.[1];
      if (type) lines.push({ type, at });
    }
  };
  const run = await measure(
    [
      BINARY,
      "-o",
      "stream-json",
      "--max-turns",
      String(turns + 10),
      "-C",
      dir,
      "TASK-bench: cat out.txt until told to stop",
    ],
    { env, onStdout },
  );
  await server.stop();
  const result = JSON.parse(run.stdout.slice(run.stdout.lastIndexOf('\n{"type":"result"') + 1) || "{}");
  // Checked before any figure is printed: the run finished, and the strict fake refused nothing.
  if (result.subtype !== "success" || result.num_turns !== turns + 1)
    throw new Error(`session failed: ${run.stdout.slice(0, 300)} ${run.stderr.slice(0, 300)}`);
  if (server.rejected.length)
    throw new Error(`malformed or too-long requests: ${JSON.stringify(server.rejected.slice(0, 3))}`);
  if (lostTask) throw new Error(`${lostTask} requests did not start with the task`);
  // Client time between turns: a turn's request after the previous turn's response ended (no
  // summary call in between), tool time (one `cat`) included.
  // The client's own part is the gap less the tool's run between the two requests. The n-th tool
  // call follows the n-th turn request (pipe and socket may deliver out of order by a fraction of a
  // millisecond, so lines are paired by count, not by arrival).
  const starts = lines.filter((l) => l.type === "tool_use").map((l) => l.at);
  const ends = lines.filter((l) => l.type === "user").map((l) => l.at);
  if (starts.length !== turns || ends.length !== turns)
    throw new Error(`expected ${turns} tool calls, saw ${starts.length} starts and ${ends.length} results`);
  const gaps: number[] = [];
  const ownTime: number[] = [];
  let turnRequests = 0;
  for (let i = 0; i < server.requests.length; i++) {
    if (kinds[i] !== "turn") continue;
    turnRequests++;
    if (i === 0 || kinds[i - 1] !== "turn") continue;
    const call = turnRequests - 2;
    const gap = server.requests[i]!.arrivedAt! - server.requests[i - 1]!.endedAt!;
    gaps.push(gap);
    ownTime.push(gap - (ends[call]! - starts[call]!));
  }
  return { run, result, summaryCalls, summaryTokens, gaps, own: ownTime, requests: server.requests.length };
}

/**
 * In process: the client's own work for one more turn at a given history size — the context built
 * from the window and the body assembled from kept per-message JSON — against serialising the
 * whole request again. The bytes are checked equal first.
 */
async function buildCost(out: string): Promise<void> {
  for (const turns of [10, 30, 100]) {
    const w: Message[] = [{ id: "t", role: "user", content: [{ type: "text", text: "task" }], ts: 0 }];
    const builder = new AnthropicBodyBuilder();
    const req = (messages: Message[]): ModelRequest => ({
      model: "m",
      system: "system",
      messages,
      tools: [],
      maxTokens: 10,
      signal: new AbortController().signal,
      loadImage: async () => ({ mediaType: "image/png", base64: "" }),
    });
    let ours = 0;
    let full = 0;
    const rounds = 40;
    for (let i = 0; i < turns + rounds; i++) {
      w.push({
        id: `a${i}`,
        role: "assistant",
        content: [{ type: "tool_use", id: `c${i}`, name: "Bash", input: { command: "cat out.txt" } }],
        ts: 0,
      });
      w.push({
        id: `u${i}`,
        role: "user",
        content: [{ type: "tool_result", tool_use_id: `c${i}`, content: `${i}${out}` }],
        ts: 0,
      });
      const window = [w[0]!, ...w.slice(-2 * turns)];
      let t = performance.now();
      const { body } = await builder.build(req(buildContext(window, { task: w[0] })), "m");
      const mine = performance.now() - t;
      t = performance.now();
      const reference = JSON.stringify(await toAnthropicParams(req(buildContext(window, { task: w[0] })), "m"));
      const theirs = performance.now() - t;
      if (body !== reference) throw new Error("the assembled body differs from a full serialisation");
      if (i >= turns) {
        ours += mine;
        full += theirs;
      }
    }
    console.log(
      `  request build at ${turns} turns in context (${((turns * out.length) / 1024).toFixed(0)} kB): ${(ours / rounds).toFixed(2)} ms (whole request serialised again: ${(full / rounds).toFixed(2)} ms; same bytes)`,
    );
  }
}

export async function main(turns = 1200) {
  const dir = mkdtempSync(join(tmpdir(), "synapse-ctx-bench-"));
  // 20 kB of distinct lines.
  writeFileSync(
    join(dir, "out.txt"),
    Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(44, "0")}\n`).join(""),
  );
  const out = Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(44, "0")}\n`).join("");
  await buildCost(out);
  const short = await session(100, dir);
  const long = await session(turns, dir);
  console.log(
    `every request well-formed and within ${WINDOW / 1000}k tokens (strict fake): ${short.requests} + ${long.requests} requests`,
  );
  console.log(
    `100 turns:   ${(short.run.wallMs / 1000).toFixed(1)} s, peak RSS ${short.run.peakRssMb.toFixed(0)} MiB, ${short.result.stats.compactions} condenses, ${short.summaryCalls} summary calls`,
  );
  console.log(
    `${turns} turns: ${(long.run.wallMs / 1000).toFixed(1)} s, peak RSS ${long.run.peakRssMb.toFixed(0)} MiB (${(long.run.peakRssMb / short.run.peakRssMb).toFixed(2)}x the 100-turn run; aim 1.1x)`,
  );
  console.log(
    `  condenses ${long.result.stats.compactions}, summary calls ${long.summaryCalls} (one per ${(turns / Math.max(1, long.summaryCalls)).toFixed(0)} turns; Claude Code: one per ~34), summary tokens ${long.summaryTokens}`,
  );
  const p90 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length * 0.9)]!;
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const figures = (v: number[]) =>
    `median first 100 ${median(v.slice(0, 100)).toFixed(1)} ms, last 100 ${median(v.slice(-100)).toFixed(1)} ms, all ${median(v).toFixed(1)} ms, p90 ${p90(v).toFixed(1)} ms, mean ${mean(v).toFixed(1)} ms`;
  console.log(
    `  time between turns (response end → next request's headers), one \`cat\` tool call included: ${figures(long.gaps)}`,
  );
  console.log(`  the client's own part (the same, less the tool call's run): ${figures(long.own)} (aim: at most 5 ms)`);
}

if (import.meta.main) await main(Number(process.argv[2] ?? 1200));
