// Reads the config files and the process environment once, at startup, and resolves them.

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import { type Config, type ConfigFlags, type FileConfig, resolveConfig } from "./config.ts";
import { terminalFacts } from "./terminal.ts";

function readConfigFile(path: string): FileConfig | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    return parsed as FileConfig;
  } catch (err) {
    throw new UsageError(`invalid config file ${path}: ${(err as Error).message}`);
  }
}

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
    stdoutIsTTY: terminalFacts().outIsTTY,
  });
}
