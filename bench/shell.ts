// Shell benchmark: per-command overhead of the pooled shell against a fresh `bash -c` per
// command, side by side on `true` and `echo hi`; then peak RSS while one command prints 200 MB,
// which should stay near the baseline since output is kept as a head and a rolling tail.
// Usage: bun bench/shell.ts [commands]

import "./temp-root.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandEnvironment, SECRET_ENV_NAMES } from "../src/config/command-env.ts";
import type { ShellConfig } from "../src/config/config.ts";
import { createShellPool } from "../src/shell/shell-pool.ts";

export interface ShellBenchResult {
  overheadMs: Record<string, { pool: number; bashC: number; ratio: number }>;
  bigOutput: { mb: number; seconds: number; baselineRssMb: number; peakRssMb: number; outputChars: number };
}

export const CONFIG: ShellConfig = {
  poolMax: 8,
  idleMax: 2,
  idleMs: 60_000,
  maxCd: 5,
  commandTimeoutMs: 120_000,
  maxCommandTimeoutMs: 600_000,
  killGraceMs: 2_000,
  outputMaxLines: 500,
  outputMaxChars: 30_000,
  env: commandEnvironment(process.env, SECRET_ENV_NAMES),
  hiddenEnv: SECRET_ENV_NAMES,
  hiddenSet: [],
};

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const round = (n: number, digits = 3) => Number(n.toFixed(digits));

async function freshBash(command: string, cwd: string): Promise<void> {
  const proc = Bun.spawn(["bash", "-c", command], { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
}

/** Milliseconds per command, after a warm-up of a tenth of the runs. */
async function perCommand(n: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.max(5, n / 10); i++) await run();
  const start = performance.now();
  for (let i = 0; i < n; i++) await run();
  return (performance.now() - start) / n;
}

export async function main(commands = 1000): Promise<ShellBenchResult> {
  const cwd = mkdtempSync(join(tmpdir(), "synapse-bench-shell-"));
  const pool = createShellPool(CONFIG);
  const result: ShellBenchResult = {
    overheadMs: {},
    bigOutput: { mb: 200, seconds: 0, baselineRssMb: 0, peakRssMb: 0, outputChars: 0 },
  };
  try {
    // Checked before timing: the pooled shell must give what bash -c gives.
    const check = await pool.run({ command: "echo hi; false", cwd, taskId: "bench", timeoutMs: 10_000 });
    if (check.output.trim() !== "hi" || check.exitCode !== 1)
      throw new Error(`pooled shell answered wrongly: ${JSON.stringify(check)}`);
    console.log(`per-command time, ${commands} pooled / ${commands / 4} fresh runs each`);
    for (const command of ["true", "echo hi"]) {
      const pooled = await perCommand(commands, () => pool.run({ command, cwd, taskId: "bench", timeoutMs: 10_000 }));
      const fresh = await perCommand(commands / 4, () => freshBash(command, cwd));
      result.overheadMs[command] = { pool: round(pooled), bashC: round(fresh), ratio: round(fresh / pooled, 1) };
      console.log(
        `  ${command.padEnd(8)} pool ${pooled.toFixed(3)} ms   bash -c ${fresh.toFixed(3)} ms   ${(fresh / pooled).toFixed(1)}x less`,
      );
    }

    Bun.gc(true);
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const start = performance.now();
    // 2,000,000 distinct 100-byte lines: nothing for run-length encoding to collapse.
    const big = await pool.run({
      command: `awk 'BEGIN { for (i = 0; i < 2000000; i++) printf "%099d\\n", i }'`,
      cwd,
      taskId: "bench",
      timeoutMs: 120_000,
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    result.bigOutput = {
      mb: 200,
      seconds: round((performance.now() - start) / 1000, 2),
      baselineRssMb: mb(baseline),
      peakRssMb: mb(peak),
      outputChars: big.output.length,
    };
    console.log(
      `200 MB of output: ${result.bigOutput.seconds} s, RSS ${result.bigOutput.baselineRssMb} MB before, peak ${result.bigOutput.peakRssMb} MB ` +
        `(+${round(result.bigOutput.peakRssMb - result.bigOutput.baselineRssMb, 1)} MB), result ${big.output.length} chars, exit ${big.exitCode}`,
    );
    console.log(`pool stats: ${JSON.stringify(pool.stats())}`);
  } finally {
    await pool.close();
    rmSync(cwd, { recursive: true, force: true });
  }
  return result;
}

if (import.meta.main) await main(Number(process.argv[2]) || undefined);
