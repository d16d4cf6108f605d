// A sandboxed shell pool over a throwaway home full of canary files, and whether bwrap can run
// here at all (tests that need it skip by name, visibly, when it cannot).

import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandEnvironment, SECRET_ENV_NAMES } from "../../src/config/command-env.ts";
import type { SandboxConfig, ShellConfig } from "../../src/config/config.ts";
import { sandboxPlan } from "../../src/sandbox/plan.ts";
import { sandboxState } from "../../src/sandbox/probe.ts";
import type { SandboxState } from "../../src/sandbox/types.ts";
import { createShellPool } from "../../src/shell/shell-pool.ts";
import type { RunOutcome, RunRequest, ShellPool } from "../../src/shell/types.ts";
import { TEST_CONFIG } from "../shell/support.ts";

/** SYNAPSE_BWRAP=/nonexistent runs these suites as on a machine without bwrap (they skip, by name). */
const bwrapPath = process.env.SYNAPSE_BWRAP || undefined;
export const PROBED: SandboxState = await sandboxState({ mode: "workspace-write", network: false, bwrapPath });
export const HAVE_BWRAP = PROBED.kind === "bwrap";
/** Appended to the names of tests that need bwrap, so a skip says why. */
export const NEEDS_BWRAP = HAVE_BWRAP
  ? ""
  : ` [SKIPPED: no working bwrap here: ${PROBED.kind === "none" ? PROBED.reason : ""}]`;

export const CANARY = "canary-7f3a9c";
export const BASHRC = "# the user's own bashrc\n";

/**
 * Where test homes go: not under /tmp, which the sandbox replaces with its own (a home there would
 * be out of reach for that reason alone, and the hiding of credential stores would go untested).
 */
export function testBase(): string {
  // The run's own folder there (tests/support/preload.ts), removed with the run.
  const runs = process.env.SYNAPSE_TEST_VAR_TMP;
  if (runs) return runs;
  try {
    accessSync("/var/tmp", constants.W_OK);
    return "/var/tmp";
  } catch {
    return tmpdir();
  }
}

export interface SandboxHarness {
  pool: ShellPool;
  /** The fresh folder holding everything below. */
  dir: string;
  home: string;
  /** The workspace (cwd): writable in workspace-write. */
  ws: string;
  /** A repository next to the workspace: outside it. */
  sibling: string;
  /** Synapse's own folders: user config and SYNAPSE_HOME (sessions, history). */
  configDir: string;
  dataDir: string;
  run(command: string, extra?: Partial<RunRequest>): Promise<RunOutcome>;
  cleanup(): Promise<void>;
}

export async function sandboxHarness(
  sandbox: Partial<SandboxConfig> = {},
  shell: Partial<ShellConfig> = {},
): Promise<SandboxHarness> {
  const dir = realpathSync(mkdtempSync(join(testBase(), "synapse-sandbox-test-")));
  const home = join(dir, "home");
  const ws = join(dir, "ws");
  const sibling = join(dir, "sibling");
  const configDir = join(home, ".config/synapse");
  const dataDir = join(home, ".local/share/synapse");
  for (const d of [
    ws,
    sibling,
    join(home, ".ssh"),
    join(home, ".aws"),
    join(home, ".docker/run"),
    configDir,
    join(dataDir, "sessions"),
  ])
    mkdirSync(d, { recursive: true });
  // Not secret (readable inside), so not the canary: only writing it is an attack.
  writeFileSync(join(home, ".bashrc"), BASHRC);
  writeFileSync(join(home, ".ssh/id_rsa"), `-----BEGIN ${CANARY}-----\n`);
  writeFileSync(join(home, ".aws/credentials"), `aws_secret_access_key=${CANARY}\n`);
  writeFileSync(join(home, ".netrc"), `machine x password ${CANARY}\n`);
  writeFileSync(join(configDir, "config.json"), `{"model": "${CANARY}"}\n`);
  writeFileSync(join(dataDir, "history"), `"${CANARY}"\n`);
  writeFileSync(join(sibling, "README"), `${CANARY}\n`);
  mkdirSync(join(ws, ".git/hooks"), { recursive: true });
  writeFileSync(join(ws, ".git/config"), "[core]\n");

  const env = { ...commandEnvironment(process.env, SECRET_ENV_NAMES), HOME: home, CLOUD_TOKEN: CANARY };
  const config: ShellConfig = { ...TEST_CONFIG, env, ...shell };
  const state = await sandboxState({ mode: "workspace-write", network: false, bwrapPath, ...sandbox });
  const plan = sandboxPlan({ cwd: ws, addDirs: [], home: dataDir, configDir, shell: config }, state, home);
  if (!plan) throw new Error(`no sandbox: ${JSON.stringify(state)}`);
  const pool = createShellPool(config, plan);
  return {
    pool,
    dir,
    home,
    ws,
    sibling,
    configDir,
    dataDir,
    run: (command, extra = {}) => pool.run({ command, cwd: ws, taskId: "main", timeoutMs: 10_000, ...extra }),
    async cleanup() {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
