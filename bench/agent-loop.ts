// Client overhead per turn: a 100-turn tool loop against the fake server, total wall time minus
// the time the server spent answering, divided by the turns.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLLM } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { measure } from "./measure.ts";

export async function main(turns = 100) {
  const dir = mkdtempSync(join(tmpdir(), "synapse-loop-bench-"));
  writeFileSync(join(dir, "file.txt"), "line\n".repeat(50));
  const server = await startFakeLLM((_req, i) =>
    i < turns - 1 ? { toolCalls: [{ name: "Read", input: { path: "file.txt", limit: 5 } }] } : { text: "done" },
  );
  // The same call hundreds of times is the workload here, not a runaway loop: detection off.
  const env = { ...tempHome().env, ...providerEnv(server.url), SYNAPSE_LOOP_LIMIT: "0" };
  const run = await measure([BINARY, "-o", "json", "--max-turns", String(turns + 1), "-C", dir, "loop"], { env });
  const wall = run.wallMs;
  await server.stop();
  const result = JSON.parse(run.stdout);
  // The figures count only if the run did the work: every turn reached the server, each Read came
  // back with the file's lines, and the answer is the scripted one.
  if (
    result.subtype !== "success" ||
    result.result !== "done" ||
    result.num_turns !== turns ||
    server.requests.length !== turns
  ) {
    throw new Error(
      `wrong run: ${result.subtype}, ${result.num_turns} turns, ${server.requests.length} requests, result ${JSON.stringify(result.result)}`,
    );
  }
  const last = server.requests.at(-1)!.body.messages.at(-1);
  const toolResult = JSON.stringify(last?.content ?? "");
  if (!toolResult.includes("tool_result") || !toolResult.includes("line"))
    throw new Error(`the last request did not carry the Read result: ${toolResult.slice(0, 200)}`);
  const gaps: number[] = [];
  for (let i = 1; i < server.requests.length; i++)
    gaps.push(server.requests[i]!.receivedAt - server.requests[i - 1]!.receivedAt);
  const firstTen = gaps.slice(0, 10).reduce((a, b) => a + b, 0) / Math.max(1, Math.min(10, gaps.length));
  const lastTen = gaps.slice(-10).reduce((a, b) => a + b, 0) / Math.max(1, Math.min(10, gaps.length));
  console.log(
    `${turns}-turn tool loop: ${result.num_turns} turns, wall ${wall.toFixed(0)} ms, server ${server.serverTimeMs.toFixed(0)} ms`,
  );
  console.log(
    `  client overhead ${((wall - server.serverTimeMs) / turns).toFixed(2)} ms/turn (request gap: first 10 turns ${firstTen.toFixed(2)} ms, last 10 ${lastTen.toFixed(2)} ms)`,
  );
  console.log(`  peak RSS ${run.peakRssMb.toFixed(0)} MiB`);
}

if (import.meta.main) await main(Number(process.argv[2] ?? 100));
