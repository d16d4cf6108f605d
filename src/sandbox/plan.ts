// From the configuration and the probed state to what the shell pool needs to start its shells
// in the sandbox: bwrap's path, the profile (without the pool's own folder) and the environment.

import { lstatSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { sandboxEnvironment } from "./environment.ts";
import type { SandboxProfile } from "./profile.ts";
import { collectProfile } from "./profile-paths.ts";
import type { SandboxState } from "./types.ts";
import { ownDirs } from "../config/own-dirs.ts";

export interface SandboxPlan {
  bwrap: string;
  /** What exists now (see collectProfile): asked again at each shell start. */
  profile(): Omit<SandboxProfile, "poolDir">;
  env: Readonly<Record<string, string>>;
  /** The workspace roots (cwd and every --add-dir), as configured. */
  roots: readonly string[];
}

type PlanSource = Pick<Config, "cwd" | "addDirs" | "home" | "configDir" | "shell"> & { cacheDir?: string };

/**
 * Undefined when commands run unconfined. The effective config folder, SYNAPSE_HOME and the cache
 * are made first if missing: only an existing folder can be hidden, and a command in a workspace
 * that holds them (cwd = home) could otherwise create a config.json that loosens every later run,
 * or plant the `rg` that synapse runs, unconfined, on the next.
 */
export function sandboxPlan(config: PlanSource, state: SandboxState, home = homedir()): SandboxPlan | undefined {
  if (state.kind !== "bwrap") return undefined;
  for (const dir of [config.configDir, config.home, config.cacheDir]) {
    try {
      if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // Unwritable: then a command cannot create it either (the file system is read-only inside).
    }
  }
  const roots = [config.cwd, ...config.addDirs];
  return {
    bwrap: state.bwrap,
    profile: () => {
      for (const root of roots) makeHooksFolder(root);
      return collectProfile({
        mode: state.mode,
        network: state.network,
        roots,
        homeDir: home,
        ownDirs: ownDirs(config, home),
      });
    },
    env: sandboxEnvironment(config.shell.env, config.shell.hiddenEnv),
    roots,
  };
}

/**
 * A repository without `.git/hooks` (made by a tool other than git, or emptied) gets an empty one,
 * as `git init` makes: only an existing folder can be kept read-only, and a command could otherwise
 * create `.git/hooks/post-commit`, which your next `git commit` runs outside the sandbox.
 */
function makeHooksFolder(root: string): void {
  const git = join(root, ".git");
  const hooks = join(git, "hooks");
  try {
    // A link there (dangling or not) is left as it is: no folder is made through one.
    if (!lstatSync(git, { throwIfNoEntry: false })?.isDirectory()) return;
    if (!lstatSync(hooks, { throwIfNoEntry: false })) mkdirSync(hooks, { mode: 0o755 });
  } catch {
    // Unwritable: then a command cannot create it either.
  }
}
