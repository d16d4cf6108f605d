// From the configuration and the probed state to what the shell pool needs to start its shells
// in the sandbox: bwrap's path, the profile (without the pool's own folder) and the environment.

import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
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
  return {
    bwrap: state.bwrap,
    profile: () =>
      collectProfile({
        mode: state.mode,
        network: state.network,
        roots: [config.cwd, ...config.addDirs],
        homeDir: home,
        ownDirs: ownDirs(config, home),
      }),
    env: sandboxEnvironment(config.shell.env, config.shell.hiddenEnv),
  };
}
