// The OS sandbox's cost: a sandboxed shell's start (bwrap + bash, to its first answer) against a
// plain one, a command's overhead in a warm sandboxed shell against an unsandboxed one, and one
// turn end to end (the binary, one Bash call, the answer) with the sandbox on and off. Every figure
// counts only if the work was right: the command's output is checked before timing.
// Usage: bun bench/sandbox.ts [commands]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxPlan } from "../src/sandbox/plan.ts";
import { sandboxState } from "../src/sandbox/probe.ts";
import { createShellPool, type PoolSandbox } from "../src/shell/shell-pool.ts";
import { startFakeLLM } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { measure } from "./measure.ts";
import { CONFIG } from "./shell.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function checked(
  pool: ReturnType<typeof createShellPool>,
  cwd: string,
  command: string,
  want: string,
): Promise<void> {
  const r = await pool.run({ command, cwd, taskId: "bench", timeoutMs: 10_000 });
  if (r.output !== want)
    throw new Error(`${command} answered ${JSON.stringify(r.output)}, not ${JSON.stringify(want)}`);
}

/** Milliseconds from a new pool to its first command's answer, median of `n`. */
async function startMs(n: number, cwd: string, sandbox?: PoolSandbox): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const pool = createShellPool(CONFIG, sandbox);
    const t0 = performance.now();
    await checked(pool, cwd, "echo ready", "ready\n");
    times.push(performance.now() - t0);
    await pool.close();
  }
  return median(times);
}

/** Milliseconds per command in one warm shell, after a warm-up. */
async function perCommandMs(n: number, cwd: string, command: string, sandbox?: PoolSandbox): Promise<number> {
  const pool = createShellPool(CONFIG, sandbox);
  try {
    await checked(pool, cwd, "echo hi", "hi\n");
    for (let i = 0; i < n / 10; i++) await pool.run({ command, cwd, taskId: "bench", timeoutMs: 10_000 });
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await pool.run({ command, cwd, taskId: "bench", timeoutMs: 10_000 });
    const ms = (performance.now() - t0) / n;
    if ((await pool.stats()).shells_spawned !== 1) throw new Error("the commands did not share one shell");
    return ms;
  } finally {
    await pool.close();
  }
}

/** Wall time of one run of the binary: one Bash call (`echo` of a token), then the answer. Median of `n`. */
async function turnMs(n: number, cwd: string, args: string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const token = `tok${i}x${Math.random().toString(36).slice(2, 8)}`;
    const server = await startFakeLLM([
      { toolCalls: [{ name: "Bash", input: { command: `echo ${token}` } }] },
      { text: "done" },
    ]);
    const run = await measure([BINARY, "-o", "json", ...args, "-C", cwd, "go"], {
      env: { ...tempHome().env, ...providerEnv(server.url) },
    });
    await server.stop();
    const last = JSON.stringify(server.requests.at(-1)?.body.messages.at(-1)?.content ?? "");
    if (run.code !== 0 || !last.includes(`${token}\\n`) || last.includes("Permission denied")) {
      throw new Error(
        `the turn did not run the command: exit ${run.code}, ${last.slice(0, 200)} ${run.stderr.slice(0, 200)}`,
      );
    }
    times.push(run.wallMs);
  }
  return median(times);
}

export async function main(commands = 1000): Promise<void> {
  const state = await sandboxState({ mode: "workspace-write", network: false });
  if (state.kind !== "bwrap") {
    console.log(`sandbox benchmark skipped: no working bwrap here (${state.reason})`);
    return;
  }
  const cwd = mkdtempSync(join(tmpdir(), "synapse-bench-sandbox-"));
  try {
    const plan = sandboxPlan(
      { cwd, addDirs: [], home: join(cwd, ".synapse-home"), configDir: join(cwd, ".synapse-config"), shell: CONFIG },
      state,
    );
    const plain = await startMs(20, cwd);
    const boxed = await startMs(20, cwd, plan);
    console.log(
      `shell start to first answer (median of 20): sandboxed ${boxed.toFixed(2)} ms, plain ${plain.toFixed(2)} ms`,
    );
    for (const command of ["true", "echo hi"]) {
      const p = await perCommandMs(commands, cwd, command);
      const b = await perCommandMs(commands, cwd, command, plan);
      console.log(
        `  ${command.padEnd(8)} per command in a warm shell (${commands} runs): sandboxed ${b.toFixed(3)} ms, plain ${p.toFixed(3)} ms`,
      );
    }
    const on = await turnMs(10, cwd, []);
    const off = await turnMs(10, cwd, ["--sandbox", "full-access", "--allow", "Bash"]);
    console.log(
      `one turn end to end, binary (median of 10): sandbox on ${on.toFixed(1)} ms, off (full-access) ${off.toFixed(1)} ms`,
    );
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

if (import.meta.main) await main(Number(process.argv[2] ?? 1000));
