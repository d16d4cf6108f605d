// From the configuration and the probed state to what the shell pool needs to start its shells
// in the sandbox: bwrap's path, the profile (without the pool's own folder) and the environment.

import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import type { Config } from "../config/config.ts";
import { sandboxEnvironment } from "./environment.ts";
import type { SandboxProfile } from "./profile.ts";
import { collectProfile } from "./profile-paths.ts";
import type { SandboxState } from "./types.ts";

export interface SandboxPlan {
  bwrap: string;
  /** What exists now (see collectProfile): asked again at each shell start. */
  profile(): Omit<SandboxProfile, "poolDir">;
  env: Readonly<Record<string, string>>;
}

type PlanSource = Pick<Config, "cwd" | "addDirs" | "home" | "configDir" | "shell">;

/** Synapse's own folders: sessions and history (SYNAPSE_HOME), the user config, and their defaults. */
export function ownDirs(config: Pick<Config, "home" | "configDir">, home = homedir()): string[] {
  const dirs = [resolve(home, ".config/synapse"), resolve(home, ".local/share/synapse"), config.home];
  if (config.configDir) dirs.push(config.configDir);
  return [...new Set(dirs.map((d) => resolve(d)))];
}

/**
 * Undefined when commands run unconfined. The effective config folder and SYNAPSE_HOME are made
 * first if missing: only an existing folder can be hidden, and a command in a workspace that holds
 * them (cwd = home) could otherwise create a config.json that loosens every later run.
 */
export function sandboxPlan(config: PlanSource, state: SandboxState, home = homedir()): SandboxPlan | undefined {
  if (state.kind !== "bwrap") return undefined;
  for (const dir of [config.configDir, config.home]) {
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
