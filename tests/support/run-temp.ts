// One temp folder per test or bench run, so no test has to remember to remove what it made: 176
// mkdtempSync calls left ~4,500 folders in /tmp per run, and a /tmp of 54,000 entries made every
// Bun binary started there take 110 ms instead of 25. The run points TMPDIR at its folder (Bun's
// os.tmpdir() follows it) and removes the folder at the end; a run that never reaches its end
// (Ctrl-C, --bail, a kill) leaves one folder, which the next run removes once its owner is dead.

import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** The owner's pid is in the name, so a later run can tell a live run's folder from a dead one's. */
const PREFIX = "synapse-run-";

/** A fresh folder for this process under `base`, after removing the folders of dead runs there. */
export function claimRunRoot(base: string): string {
  sweepDeadRuns(base);
  const root = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
  // Searchable by others, as /tmp is: tests that run the binary as another user (`nobody`, through
  // setpriv) reach the folders made for it inside; its names stay private (not listable).
  chmodSync(root, 0o711);
  return root;
}

/** Removes a run's folder; what a straggling child still writes there is lost, as with any temp folder. */
export function releaseRunRoot(root: string): void {
  rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}

/** The owner pid of a run folder's name, or undefined when the name is not one of ours. */
export function runOwner(name: string): number | undefined {
  if (!name.startsWith(PREFIX)) return undefined;
  const pid = /^(\d+)-.+$/.exec(name.slice(PREFIX.length))?.[1];
  return pid === undefined ? undefined : Number(pid);
}

function sweepDeadRuns(base: string): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = runOwner(name);
    if (owner !== undefined && owner !== process.pid && !isAlive(owner)) releaseRunRoot(join(base, name));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but another user's; only ESRCH means gone.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
