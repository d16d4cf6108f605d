// Reads the config files and the process environment once, at startup, and resolves them.

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import { type Config, type ConfigFlags, type FileConfig, resolveConfig } from "./config.ts";

function readConfigFile(path: string): FileConfig | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    return checkFileConfig(JSON.parse(text));
  } catch (err) {
    throw new UsageError(`invalid config file ${path}: ${(err as Error).message}`);
  }
}

const PERMISSION_MODES = ["default", "accept-edits", "bypass", "plan"];

/** The same rules as the flags and variables they stand in for; a bad value is never ignored. */
export function checkFileConfig(value: unknown): FileConfig {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not a JSON object");
  const v = value as Record<string, unknown>;
  const whole = (key: string, min: number) => {
    if (v[key] === undefined) return;
    if (typeof v[key] !== "number" || !Number.isInteger(v[key]) || (v[key] as number) < min) {
      throw new Error(`"${key}" must be a whole number >= ${min} (got ${JSON.stringify(v[key])})`);
    }
  };
  whole("maxTurns", 1);
  whole("maxTokens", 1);
  whole("maxRetries", 0);
  if (v.model !== undefined && (typeof v.model !== "string" || !v.model.trim())) {
    throw new Error(`"model" must be a non-empty string (got ${JSON.stringify(v.model)})`);
  }
  if (v.permissionMode !== undefined && !PERMISSION_MODES.includes(v.permissionMode as string)) {
    throw new Error(`"permissionMode" must be one of ${PERMISSION_MODES.join(", ")} (got ${JSON.stringify(v.permissionMode)})`);
  }
  const unknown = Object.keys(v).filter((k) => !["maxTurns", "maxTokens", "maxRetries", "model", "permissionMode"].includes(k));
  if (unknown.length) throw new Error(`unknown setting${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")}`);
  return v as FileConfig;
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
  });
}
