// Synapse's own folders: what no command or tool may touch, and what a sandbox hides. The policy
// and the sandbox profile both ask this one list, so they cannot disagree about it.

import { resolve } from "node:path";

export interface OwnDirsSource {
  /** SYNAPSE_HOME: sessions, history, MCP approvals. */
  home?: string;
  /** The user config folder in use. */
  configDir?: string;
  /** Where the unpacked ripgrep lives: synapse runs it, outside any sandbox, on later runs too. */
  cacheDir?: string;
}

/** The folders in use and their default places under `homeDir` (a variable may point elsewhere today). */
export function ownDirs(config: OwnDirsSource, homeDir: string): string[] {
  const defaults = [".config/synapse", ".local/share/synapse", ".cache/synapse"].map((d) => resolve(homeDir, d));
  const inUse = [config.home, config.configDir, config.cacheDir].filter((d): d is string => !!d).map((d) => resolve(d));
  return [...new Set([...defaults, ...inUse])];
}
