// Startup, against trivial compiled Bun binaries built and measured in the same run:
// - `synapse --version` / `--help` against one that prints a line;
// - a one-turn piped run against the fake server: exec → the first request on the socket, against
//   one that sends one HTTP request (the floor), in wall time and in CPU time (every thread of the
//   process, from /proc/<pid>/task/*/schedstat when the request arrives: steadier than wall time on
//   a busy machine);
// - the first sub-agent: from the end of the turn that asks for it to the sub-agent's first request;
// - where synapse's start goes, phase by phase (SYNAPSE_STARTUP_TRACE=1, src/runtime/startup-trace.ts),
//   in runs of their own so the trace's few microseconds stay out of the figures above.
//
// `bun bench/startup.ts [binary]` (default dist/synapse): another binary measures a build against it.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { type RecordedRequest, type ScriptedReply, startFakeLLM } from "../tests/support/fake-llm.ts";
import { cpuMs, measure, median } from "./measure.ts";

const RUNS = Number(process.env.RUNS ?? 20);
const binary = process.argv[2] ? resolve(process.argv[2]) : BINARY;

async function timeCommand(argv: string[]) {
  const walls: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Wall time without /usr/bin/time in between; peak RSS from a separate measured run.
    const t0 = performance.now();
    const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    await new Response(proc.stdout).text();
    await proc.exited;
    walls.push(performance.now() - t0);
  }
  return { wallMs: median(walls), rssMb: (await measure(argv)).peakRssMb };
}

async function compile(name: string, source: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "synapse-bench-"));
  writeFileSync(join(dir, `${name}.ts`), source);
  const out = join(dir, name);
  // As build.ts compiles synapse (bytecode, nothing autoloaded from the directory it starts in).
  const r = await Bun.build({
    entrypoints: [join(dir, `${name}.ts`)],
    compile: { outfile: out, autoloadDotenv: false, autoloadBunfig: false, autoloadTsconfig: false },
    minify: true,
    bytecode: true,
    format: "esm",
  });
  if (!r.success) throw new Error(`could not build the trivial binary ${name}`);
  return out;
}

/** Exec → first request, wall and CPU, of each argv in turn (interleaved, so load affects both alike). */
async function firstRequest(argvs: string[][]) {
  let watched = 0;
  let cpuAtRequest = 0;
  const server = await startFakeLLM(() => {
    if (watched) cpuAtRequest = cpuMs(watched);
    watched = 0;
    return { text: "Hello! How can I help?" };
  });
  const env = { PATH: process.env.PATH!, ...tempHome().env, ...providerEnv(server.url), FAKE_URL: server.url };
  const walls = argvs.map((): number[] => []);
  const cpus = argvs.map((): number[] => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, argv] of argvs.entries()) {
      const before = server.requests.length;
      cpuAtRequest = Number.NaN;
      const t0 = Date.now();
      const proc = Bun.spawn(argv, { env, stdin: new TextEncoder().encode("hi"), stdout: "pipe", stderr: "pipe" });
      watched = proc.pid;
      const out = await new Response(proc.stdout).text();
      await proc.exited;
      const req = server.requests[before];
      if (!req || Number.isNaN(cpuAtRequest)) throw new Error(`${argv[0]} sent no request the fake answered`);
      // The work checked before its speed: every binary asks about the same "hi", and synapse answers.
      const user = req.body?.messages?.find((m: { role: string }) => m.role === "user");
      if (!JSON.stringify(user?.content ?? "").includes("hi")) throw new Error(`${argv[0]} sent no "hi"`);
      if (argv[0] === binary && !out.includes("Hello")) throw new Error(`synapse did not print the answer: ${out}`);
      walls[k]!.push(req.receivedAt - t0);
      cpus[k]!.push(cpuAtRequest);
    }
  }
  const last = argvs.at(-1)!;
  const rssMb = (await measure(last, { env, stdin: "hi" })).peakRssMb;
  const runs = argvs.map((_, k) => ({ wallMs: median(walls[k]!), cpuMs: median(cpus[k]!) }));
  return { rssMb, runs, env, stop: () => server.stop() };
}

const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");

/** The end of the main turn's stream (which asks for one task, streamed slowly) → the sub-agent's first request. */
export async function firstSubAgent(bin = binary): Promise<number> {
  const gaps: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 10); i++) {
    let main = 0;
    const server = await startFakeLLM((req): ScriptedReply => {
      if (isSub(req)) return { text: "found it" };
      if (main++ > 0) return { text: "done" };
      const command = 'task:explore -p "look at the parser and say where errors are reported"';
      return { toolCalls: [{ id: "toolu_1", name: "Bash", input: { command } }], chunkDelayMs: 60 };
    });
    const env = { PATH: process.env.PATH!, ...tempHome().env, ...providerEnv(server.url) };
    const proc = Bun.spawn([bin, "look"], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    await new Response(proc.stdout).text();
    await proc.exited;
    const asking = server.requests.find((r) => !isSub(r));
    const sub = server.requests.find(isSub);
    if (!asking?.endedAt || !sub?.arrivedAt) throw new Error("the sub-agent run did not go as scripted");
    gaps.push(sub.arrivedAt - asking.endedAt);
    await server.stop();
  }
  return median(gaps);
}

/** Median end of each start-up phase (wall since the spawn, CPU of the process) over traced runs. */
async function phases(env: Record<string, string>) {
  const ends = new Map<string, { wall: number[]; cpu: number[] }>();
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.timeOrigin + performance.now();
    const proc = Bun.spawn([binary], {
      env: { ...env, SYNAPSE_STARTUP_TRACE: "1" },
      stdin: new TextEncoder().encode("hi"),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    await proc.exited;
    for (const m of err.matchAll(/^synapse-startup (\S+) ([\d.]+) ([\d.]+)$/gm)) {
      const row = ends.get(m[1]!) ?? { wall: [], cpu: [] };
      row.wall.push(Number(m[2]) - t0);
      row.cpu.push(Number(m[3]));
      ends.set(m[1]!, row);
    }
  }
  if (!ends.has("fetch")) throw new Error("the traced runs reported no phases");
  let wall = 0;
  let cpu = 0;
  console.log(`where synapse's start goes (SYNAPSE_STARTUP_TRACE=1), median of ${RUNS}: phase end, wall / CPU ms`);
  for (const [phase, row] of ends) {
    const w = median(row.wall);
    const c = median(row.cpu);
    console.log(
      `  ${phase.padEnd(15)} ${w.toFixed(1).padStart(6)} (+${(w - wall).toFixed(1)})  ${c.toFixed(1).padStart(6)} (+${(c - cpu).toFixed(1)})`,
    );
    wall = w;
    cpu = c;
  }
}

/**
 * What any agent built on Bun's node modules and the official SDK pays before its first request,
 * however little else it does: trivial binaries that only load node:fs, fs/promises, path and os
 * (which every file-reading, session-saving agent loads), or only send the request through the
 * Anthropic SDK's client as synapse does, or both. Synapse cannot start faster than "both".
 */
async function lowerBounds(postCall: string): Promise<{ name: string; path: string }[]> {
  const builtins =
    'import { readFileSync } from "node:fs"; import { readFile } from "node:fs/promises"; ' +
    'import { join } from "node:path"; import { homedir } from "node:os";\n' +
    "(globalThis as Record<string, unknown>).kept = [readFileSync, readFile, join, homedir];\n";
  const sdk = (part: string) => JSON.stringify(Bun.resolveSync(`@anthropic-ai/sdk/${part}`, import.meta.dir));
  const sdkCall =
    `import { BaseAnthropic } from ${sdk("client")}; import { Messages } from ${sdk("resources/messages/messages")};\n` +
    'const client = new BaseAnthropic({ apiKey: "k", baseURL: process.env.FAKE_URL, maxRetries: 0 });\n' +
    'new Messages(client).create({ model: "m", max_tokens: 16, stream: true, messages: [{ role: "user", content: "hi" }] })' +
    ".then(async (s) => { for await (const _ of s); });\n";
  return [
    { name: "+ node:fs, path, os", path: await compile("builtins-post", builtins + postCall) },
    { name: "SDK client, one request", path: await compile("sdk-post", sdkCall) },
    { name: "node modules + SDK request", path: await compile("builtins-sdk-post", builtins + sdkCall) },
  ];
}

export async function main() {
  const hello = await compile("hello", 'console.log("hello");\n');
  // The smallest valid request the fake answers, as the SDK would send it.
  const body = JSON.stringify({
    model: "m",
    max_tokens: 16,
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const postCall = `fetch(process.env.FAKE_URL + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" }, body: ${JSON.stringify(body)} }).then((r) => r.text());\n`;
  const post = await compile("post", postCall);
  const bounds = await lowerBounds(postCall);
  const base = await timeCommand([hello]);
  const version = await timeCommand([binary, "--version"]);
  const help = await timeCommand([binary, "--help"]);
  const row = (name: string, m: { wallMs: number; rssMb: number }) =>
    `  ${name.padEnd(29)}${m.wallMs.toFixed(1)} ms  ${m.rssMb.toFixed(0)} MiB  (${(m.wallMs / base.wallMs).toFixed(2)}x)`;
  console.log(`startup (median of ${RUNS}):`);
  console.log(`  trivial compiled Bun binary  ${base.wallMs.toFixed(1)} ms  ${base.rssMb.toFixed(0)} MiB`);
  console.log(row("synapse --version", version));
  console.log(row("synapse --help", help));

  const { rssMb, runs, env, stop } = await firstRequest([[post], ...bounds.map((b) => [b.path]), [binary]]);
  const floor = runs[0];
  const synapse = runs.at(-1);
  if (!floor || !synapse) throw new Error("no first-request figures");
  const ratio = (m: { wallMs: number; cpuMs: number }) =>
    `wall ${m.wallMs.toFixed(0)} ms, CPU ${m.cpuMs.toFixed(1)} ms  (${(m.wallMs / floor.wallMs).toFixed(2)}x wall, ${(m.cpuMs / floor.cpuMs).toFixed(2)}x CPU)`;
  console.log(`exec → first request on the socket, one-turn piped run ("hi"), median of ${RUNS}:`);
  console.log(`  trivial Bun binary, one POST  wall ${floor.wallMs.toFixed(0)} ms, CPU ${floor.cpuMs.toFixed(1)} ms`);
  for (const [i, b] of bounds.entries()) console.log(`  ${b.name.padEnd(29)}${ratio(runs[i + 1]!)}`);
  console.log(`  synapse                       ${ratio(synapse)}`);
  console.log(`  peak RSS of synapse's run: ${rssMb.toFixed(0)} MiB`);
  await phases(env);
  await stop();
  console.log(
    `first sub-agent: end of the turn asking for it → its first request, median: ${(await firstSubAgent()).toFixed(0)} ms`,
  );
}

if (import.meta.main) await main();
