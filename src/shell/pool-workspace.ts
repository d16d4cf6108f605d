// The folder every shell of one pool shares: the init and watchdog scripts, request files, output
// fifos, carried state. One per pool and process; a dead process's folder is removed by the next.

import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { POOL_CARRY_DIR } from "../sandbox/profile.ts";
import { FifoStock } from "./fifo-stock.ts";
import { isAlive } from "./process-table.ts";
import { INIT_SCRIPT } from "./shell-script.ts";
import { WATCHDOG_SCRIPT } from "./watchdog.ts";

export interface PoolWorkspace {
  dir: string;
  initPath: string;
  watchdogPath: string;
  stock: FifoStock;
}

const WORKSPACE_PREFIX = "synapse-shell-";

/** `env` is the shells' own: the fifo stock's helper runs with it. */
export function createPoolWorkspace(env: Readonly<Record<string, string>>): PoolWorkspace {
  const base = workspaceBase();
  removeStaleWorkspaces(base);
  const dir = mkdtempSync(join(base, `${WORKSPACE_PREFIX}${process.pid}-`));
  mkdirSync(join(dir, POOL_CARRY_DIR), { mode: 0o700 });
  const initPath = join(dir, "init.sh");
  writeFileSync(initPath, INIT_SCRIPT);
  const watchdogPath = join(dir, "watchdog.sh");
  writeFileSync(watchdogPath, WATCHDOG_SCRIPT);
  return { dir, initPath, watchdogPath, stock: new FifoStock(dir, env) };
}

export function removePoolWorkspace(workspace: PoolWorkspace): void {
  try {
    rmSync(workspace.dir, { recursive: true, force: true });
  } catch {
    // A batch of fifos landing mid-removal; the next pool's stale sweep takes the rest.
  }
}

/** Workspaces of pools whose process died without cleaning up (killed with SIGKILL, say). */
function removeStaleWorkspaces(base: string): void {
  try {
    for (const name of readdirSync(base)) {
      const owner = name.startsWith(WORKSPACE_PREFIX)
        ? /^(\d+)-/.exec(name.slice(WORKSPACE_PREFIX.length))?.[1]
        : undefined;
      if (owner && Number(owner) !== process.pid && !isAlive(Number(owner))) {
        rmSync(join(base, name), { recursive: true, force: true });
      }
    }
  } catch {
    // Best effort: a leftover directory costs a few inodes.
  }
}

/**
 * Where the fifos and request files go: a memory file system when there is one, because a
 * command's own bookkeeping (a create, a write, an unlink) should not wait on a disk journal.
 */
function workspaceBase(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}
