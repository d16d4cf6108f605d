// Bounded memory: peak RSS of the compiled binary over a 5,000-turn session (each turn a 20 kB
// tool output) against a 100-turn one, and over a session that reads 100 images of 5 MB.

import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLLM } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { measure } from "./measure.ts";

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

async function session(turns: number, call: (i: number) => { name: string; input: unknown }, dir: string) {
  const server = await startFakeLLM((_req, i) => (i < turns - 1 ? { toolCalls: [call(i)] } : { text: "done" }));
  const home = tempHome();
  // SYNAPSE_* variables set for the bench reach the binary (e.g. to compare window sizes).
  const own = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("SYNAPSE_"))) as Record<
    string,
    string
  >;
  // The same call hundreds of times is the workload here, not a runaway loop: detection off.
  const env = { SYNAPSE_LOOP_LIMIT: "0", ...own, ...home.env, ...providerEnv(server.url) };
  const run = await measure([BINARY, "-o", "json", "--max-turns", String(turns + 1), "-C", dir, "go"], { env });
  await server.stop();
  const result = JSON.parse(run.stdout || "{}");
  if (result.subtype !== "success")
    throw new Error(`session failed: ${run.stdout.slice(0, 300)} ${run.stderr.slice(0, 300)}`);
  return {
    turns: result.num_turns,
    wallS: run.wallMs / 1000,
    peakRssMb: run.peakRssMb,
    archiveMb: dirBytes(home.env.SYNAPSE_HOME!) / 1024 / 1024,
    stats: result.stats,
  };
}

export async function main(longTurns = 5000, imageCount = 100) {
  const dir = mkdtempSync(join(tmpdir(), "synapse-mem-bench-"));
  // 20 kB of distinct lines (identical lines would be run-length compressed to almost nothing).
  writeFileSync(
    join(dir, "out.txt"),
    Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(44, "0")}\n`).join(""),
  );
  const bash = () => ({ name: "Bash", input: { command: "cat out.txt" } });
  const short = await session(100, bash, dir);
  console.log(
    `100-turn session:   peak RSS ${short.peakRssMb.toFixed(0)} MiB, ${short.wallS.toFixed(1)} s, archive ${short.archiveMb.toFixed(1)} MiB`,
  );
  const long = await session(longTurns, bash, dir);
  console.log(
    `${longTurns}-turn session: peak RSS ${long.peakRssMb.toFixed(0)} MiB, ${long.wallS.toFixed(1)} s, archive ${long.archiveMb.toFixed(1)} MiB, evicted ${long.stats.messages_evicted}`,
  );
  console.log(`  ratio ${(long.peakRssMb / short.peakRssMb).toFixed(2)}x (bar: within 1.5x)`);

  const images = mkdtempSync(join(tmpdir(), "synapse-img-bench-"));
  const png = new Uint8Array(5 * 1024 * 1024);
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 0; i < imageCount; i++) {
    png[100] = i; // distinct content, so each image is stored once on its own
    writeFileSync(join(images, `img${i}.png`), png);
  }
  const img = await session(imageCount + 1, (i) => ({ name: "Read", input: { path: `img${i}.png` } }), images);
  console.log(
    `${imageCount} images of 5 MB: peak RSS ${img.peakRssMb.toFixed(0)} MiB (bar: under 300 MB), ${img.wallS.toFixed(1)} s`,
  );
}

if (import.meta.main) await main(Number(process.argv[2] ?? 5000), Number(process.argv[3] ?? 100));
