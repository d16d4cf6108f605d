// Helpers for the shell tests that run real bash processes: a pool with small limits, a temp
// directory, and process-table checks for survivors.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandEnvironment, SECRET_ENV_NAMES } from "../../src/config/command-env.ts";
import type { ShellConfig } from "../../src/config/config.ts";
import { createShellPool } from "../../src/shell/shell-pool.ts";
import type { RunOutcome, RunRequest, ShellPool } from "../../src/shell/types.ts";

export const TEST_CONFIG: ShellConfig = {
  poolMax: 4,
  idleMax: 4,
  idleMs: 60_000,
  maxCd: 5,
  commandTimeoutMs: 10_000,
  maxCommandTimeoutMs: 20_000,
  killGraceMs: 200,
  outputMaxLines: 500,
  outputMaxChars: 30_000,
  env: commandEnvironment(process.env, SECRET_ENV_NAMES),
  hiddenEnv: SECRET_ENV_NAMES,
  hiddenSet: [],
};

export interface Harness {
  pool: ShellPool;
  /** Real path of a fresh directory with a `src` subdirectory. */
  root: string;
  run(command: string, extra?: Partial<RunRequest>): Promise<RunOutcome>;
  cleanup(): Promise<void>;
}

export function harness(config: Partial<ShellConfig> = {}): Harness {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "synapse-shell-test-")));
  mkdirSync(join(root, "src"));
  const pool = createShellPool({ ...TEST_CONFIG, ...config });
  return {
    pool,
    root,
    run: (command, extra = {}) => pool.run({ command, cwd: root, taskId: "main", timeoutMs: 10_000, ...extra }),
    async cleanup() {
      await pool.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

interface Proc {
  pid: number;
  sid: number;
  pgid: number;
  zombie: boolean;
  cmdline: string;
}

export function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "latin1").replaceAll("\0", " ").trim();
      out.push({ pid: Number(name), zombie: f[0] === "Z", pgid: Number(f[2]), sid: Number(f[3]), cmdline });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/** Live processes whose command line contains `marker`, or that belong to one of `sessions`. */
export function survivors(marker: string, sessions: number[] = []): Proc[] {
  return processes().filter((p) => !p.zombie && (p.cmdline.includes(marker) || sessions.includes(p.sid)));
}

/**
 * Waits until `check` holds. For conditions that no event announces (another process's death,
 * a timer inside the pool); the deadline only bounds a failing test.
 */
export async function until(check: () => boolean, deadlineMs = 3000): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await Bun.sleep(10);
  }
  return true;
}

export function pidOf(outcome: RunOutcome): number {
  return Number(outcome.output.trim().split("\n")[0]);
}
