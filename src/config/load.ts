// Reads the config files and the process environment once, at startup, and resolves them.

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import { type Config, type ConfigFlags, type FileConfig, resolveConfig } from "./config.ts";
import { checkFileConfig } from "./file-config.ts";

function readConfigFile(path: string): FileConfig | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    // Only a missing file means "no config"; one that is a directory or unreadable is a mistake to tell.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    const reason =
      code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (err as Error).message;
    throw new UsageError(`cannot read config file ${path}: ${reason}`);
  }
  try {
    return checkFileConfig(JSON.parse(text));
  } catch (err) {
    throw new UsageError(`invalid config file ${path}: ${(err as Error).message}`);
  }
}

/** The keys a config file may hold are checked by their schemas in file-config.ts. */
export { checkFileConfig };

export function loadConfig(flags: ConfigFlags, env: Record<string, string | undefined> = process.env): Config {
  const home = homedir();
  const configHome = env.XDG_CONFIG_HOME || join(home, ".config");
  const processCwd = process.cwd();
  const cwdForProject = flags.cwd ? resolve(processCwd, flags.cwd) : processCwd;
  return resolveConfig({
    flags,
    env,
    userFile: readConfigFile(join(configHome, "synapse", "config.json")),
    projectFile: readConfigFile(join(cwdForProject, ".synapse", "config.json")),
    processCwd,
    homeDir: home,
  });
}
