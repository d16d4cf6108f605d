// `synapse acp` as an editor sees it: spawn → `initialize` answered; a prompt → its first
// agent_message_chunk (the fake model answers at once, so this is Synapse's own share); the
// process's RSS with one and with five sessions open. Driven by the official SDK's client.

import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { startFakeLLM } from "../tests/support/fake-llm.ts";
import { providerEnv, tempHome } from "../tests/support/binary.ts";
import { initialize, startAcpAgent } from "../tests/support/acp-client.ts";
import { median } from "./measure.ts";

const RUNS = 10;

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))!;
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
};

export async function main() {
  const fake = await startFakeLLM(() => ({ text: "first words of the answer" }));
  const initMs: number[] = [];
  const chunkMs: number[] = [];
  let rssOne = 0;
  let rssFive = 0;
  for (let i = 0; i < RUNS; i++) {
    const home = tempHome();
    const started = performance.now();
    const agent = startAcpAgent({ ...home.env, ...providerEnv(fake.url) });
    await initialize(agent);
    initMs.push(performance.now() - started);
    const dirs = [0, 1, 2, 3, 4].map((n) => join(home.dir, `p${n}`));
    for (const d of dirs) mkdirSync(d);
    const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, {
      cwd: dirs[0]!,
      mcpServers: [],
    });
    const sent = performance.now();
    const turn = agent.conn.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    await agent.waitForUpdate((n) => n.update.sessionUpdate === "agent_message_chunk");
    chunkMs.push(performance.now() - sent);
    await turn;
    if (i === 0) {
      rssOne = rssMb(agent.proc.pid);
      for (const d of dirs.slice(1))
        await agent.conn.agent.request(acp.methods.agent.session.new, { cwd: d, mcpServers: [] });
      rssFive = rssMb(agent.proc.pid);
    }
    await agent.end();
  }
  await fake.stop();
  console.log(`spawn → initialize answered: ${median(initMs).toFixed(1)} ms (median of ${RUNS})`);
  console.log(`prompt → first agent_message_chunk: ${median(chunkMs).toFixed(1)} ms (fake model, answers at once)`);
  console.log(`RSS: ${rssOne} MB with one session (after a turn), ${rssFive} MB with five open`);
}

if (import.meta.main) await main();
