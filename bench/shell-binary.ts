// The compiled binary while one command prints 200 MB: peak RSS stays bounded by the output
// limits, not the output size (compared with a command printing 2 MB).

import { startFakeLLM } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { measure } from "./measure.ts";

async function run(lines: number) {
  // Distinct 100-byte lines: nothing for run-length encoding to collapse.
  const command = `awk 'BEGIN { for (i = 0; i < ${lines}; i++) printf "%099d\\n", i }'`;
  const server = await startFakeLLM([{ toolCalls: [{ name: "Bash", input: { command } }] }, { text: "done" }]);
  const r = await measure([BINARY, "-o", "json", "go"], { env: { ...tempHome().env, ...providerEnv(server.url) } });
  await server.stop();
  if (r.code !== 0) throw new Error(`run failed: ${r.stdout} ${r.stderr}`);
  return r;
}

export async function main() {
  const small = await run(20_000);
  const big = await run(2_000_000);
  console.log(
    `binary, one command printing   2 MB: peak RSS ${small.peakRssMb.toFixed(0)} MiB, ${(small.wallMs / 1000).toFixed(2)} s`,
  );
  console.log(
    `binary, one command printing 200 MB: peak RSS ${big.peakRssMb.toFixed(0)} MiB, ${(big.wallMs / 1000).toFixed(2)} s`,
  );
}

if (import.meta.main) await main();
