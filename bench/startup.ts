// Startup: `synapse --version` / `--help` against a trivial compiled Bun binary, in one run; and a
// one-turn piped run against the fake server (wall time, peak RSS, time to the first request).

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLLM } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { measure, median } from "./measure.ts";

const RUNS = 20;

async function timeCommand(argv: string[]) {
  const walls: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Wall time without /usr/bin/time in between; peak RSS from a separate measured run.
    const t0 = performance.now();
    const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    await new Response(proc.stdout).text();
    await proc.exited;
    walls.push(performance.now() - t0);
  }
  rss.push((await measure(argv)).peakRssMb);
  return { wallMs: median(walls), rssMb: median(rss) };
}

async function buildTrivialBinary(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "synapse-bench-"));
  writeFileSync(join(dir, "hello.ts"), 'console.log("hello");\n');
  const out = join(dir, "hello");
  const r = await Bun.build({ entrypoints: [join(dir, "hello.ts")], compile: { outfile: out }, minify: true });
  if (!r.success) throw new Error("could not build the trivial binary");
  return out;
}

export async function main() {
  const trivial = await buildTrivialBinary();
  const base = await timeCommand([trivial]);
  const version = await timeCommand([BINARY, "--version"]);
  const help = await timeCommand([BINARY, "--help"]);
  console.log(`startup (median of ${RUNS}):`);
  console.log(`  trivial compiled Bun binary  ${base.wallMs.toFixed(1)} ms  ${base.rssMb.toFixed(0)} MiB`);
  console.log(
    `  synapse --version            ${version.wallMs.toFixed(1)} ms  ${version.rssMb.toFixed(0)} MiB  (${(version.wallMs / base.wallMs).toFixed(2)}x)`,
  );
  console.log(
    `  synapse --help               ${help.wallMs.toFixed(1)} ms  ${help.rssMb.toFixed(0)} MiB  (${(help.wallMs / base.wallMs).toFixed(2)}x)`,
  );

  const server = await startFakeLLM(() => ({ text: "Hello! How can I help?" }));
  const env = { ...tempHome().env, ...providerEnv(server.url) };
  const firstRequest: number[] = [];
  const walls: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const before = server.requests.length;
    const t0 = Date.now();
    const p0 = performance.now();
    const proc = Bun.spawn([BINARY], {
      env: { PATH: process.env.PATH!, ...env },
      stdin: new TextEncoder().encode("hi"),
      stdout: "pipe",
      stderr: "pipe",
    });
    await new Response(proc.stdout).text();
    await proc.exited;
    walls.push(performance.now() - p0);
    firstRequest.push(server.requests[before].receivedAt - t0);
  }
  rss.push((await measure([BINARY], { env, stdin: "hi" })).peakRssMb);
  await server.stop();
  console.log(`one-turn piped run ("hi" → answer), median of ${RUNS}:`);
  console.log(
    `  wall ${median(walls).toFixed(1)} ms, peak RSS ${median(rss).toFixed(0)} MiB, first request after ${median(firstRequest).toFixed(0)} ms`,
  );
}

if (import.meta.main) await main();
