// MCP servers through the binary against the fake server: start → first request with 0, 1 and 3
// stdio servers (server-everything, a real Node server), the overhead of one MCP call (its server
// answers at once) beside a Read call's, and synapse's RSS with 3 servers connected.

import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startFakeLLM, type RecordedRequest, type ScriptedReply } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { median } from "./measure.ts";

const EVERYTHING = resolve(import.meta.dir, "../node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const QUICK = resolve(import.meta.dir, "../tests/support/mcp/misbehaving-server.mjs");
const servers = (n: number) =>
  JSON.stringify({
    mcpServers: Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`s${i}`, { command: "node", args: [EVERYTHING, "stdio"] }]),
    ),
  });

function spawn(args: string[], env: Record<string, string>) {
  return Bun.spawn([BINARY, ...args], {
    env: { PATH: process.env.PATH!, ...env },
    stdout: "ignore",
    stderr: "pipe",
    stdin: "ignore",
  });
}

/** Milliseconds from spawn to the first request's arrival; the request must offer every server's tools. */
async function firstRequest(n: number): Promise<number> {
  const fake = await startFakeLLM([{ text: "ok" }]);
  const home = tempHome();
  const started = performance.now();
  const proc = spawn(["--mcp-config", servers(n), "go"], { ...home.env, ...providerEnv(fake.url) });
  const [req] = await fake.waitForRequests(1, 60_000);
  const at = req!.arrivedAt ?? performance.now();
  const offered = req!.body.tools.filter((t: any) => t.name.endsWith("__echo")).length;
  if (offered !== n) throw new Error(`expected ${n} servers' tools, got ${offered}`);
  if ((await proc.exited) !== 0) throw new Error(await new Response(proc.stderr).text());
  await fake.stop();
  return at - started;
}

/** Gaps between a reply asking for one call and the request carrying its result, `calls` times. */
async function callGaps(kind: "mcp" | "read", calls = 30): Promise<number[]> {
  let n = 0;
  const fake = await startFakeLLM((): ScriptedReply => {
    n++;
    if (n > calls) return { text: "done" };
    return kind === "mcp"
      ? { toolCalls: [{ name: "mcp__q__ok", input: {} }] }
      : { toolCalls: [{ name: "Read", input: { path: "note.txt" } }] };
  });
  const home = tempHome();
  writeFileSync(join(home.dir, "note.txt"), "a note\n");
  const cfg = JSON.stringify({ mcpServers: { q: { command: "node", args: [QUICK, "normal"] } } });
  const proc = Bun.spawn([BINARY, "--mcp-config", cfg, "--allow", "mcp__q", "go"], {
    // The same call 30 times is a loop to synapse: detection off for the measurement.
    cwd: home.dir,
    env: { PATH: process.env.PATH!, ...home.env, ...providerEnv(fake.url), SYNAPSE_LOOP_LIMIT: "0" },
    stdout: "ignore",
    stderr: "pipe",
    stdin: "ignore",
  });
  if ((await proc.exited) !== 0) throw new Error(await new Response(proc.stderr).text());
  const reqs: RecordedRequest[] = fake.requests;
  for (const r of reqs.slice(1)) {
    const result = r.body.messages.at(-1).content[0];
    const text = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
    if (result.is_error || !(kind === "mcp" ? /^ok from \d+$/.test(text) : text.includes("a note")))
      throw new Error(`a failed call: ${text}`);
  }
  await fake.stop();
  return reqs.slice(1).map((r, i) => (r.arrivedAt ?? 0) - (reqs[i]!.endedAt ?? 0));
}

async function rssWith(n: number): Promise<number> {
  const fake = await startFakeLLM([{ hang: true }]);
  const home = tempHome();
  const proc = spawn(["--mcp-config", servers(n), "go"], { ...home.env, ...providerEnv(fake.url) });
  await fake.waitForRequests(1, 60_000);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))![1]) / 1024;
  proc.kill("SIGTERM");
  await proc.exited;
  await fake.stop();
  return rss;
}

/** server-everything's own time from spawn to its initialize answer: what synapse waits for. */
async function serverHandshake(): Promise<number> {
  const started = performance.now();
  const proc = Bun.spawn(["node", EVERYTHING, "stdio"], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  proc.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "b", version: "1" } } })}\n`,
  );
  proc.stdin.flush();
  let seen = "";
  for await (const chunk of proc.stdout) {
    seen += new TextDecoder().decode(chunk);
    if (seen.includes('"id":1')) break;
  }
  const ms = performance.now() - started;
  proc.kill();
  await proc.exited;
  return ms;
}

const runs = 5;
const own: number[] = [];
for (let i = 0; i < runs; i++) own.push(await serverHandshake());
console.log(`server-everything alone, spawn → initialize answer: median ${median(own).toFixed(0)} ms`);
for (const n of [0, 1, 3]) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await firstRequest(n));
  console.log(
    `start → first request, ${n} stdio server${n === 1 ? "" : "s"}: median ${median(times).toFixed(0)} ms (${runs} runs)`,
  );
}
const mcp = median(await callGaps("mcp"));
const read = median(await callGaps("read"));
console.log(
  `one tool call, reply → next request: MCP ${mcp.toFixed(1)} ms, Read ${read.toFixed(1)} ms (median of 30; the MCP server answers at once)`,
);
console.log(
  `synapse RSS: ${(await rssWith(0)).toFixed(0)} MB with no server, ${(await rssWith(3)).toFixed(0)} MB with 3 connected (servers' own memory not counted)`,
);
