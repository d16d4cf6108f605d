// The config files' texts, read once at startup, and the config they resolve to with the process
// environment. Their schemas (zod, ~3 ms to load and build at a start) load only when a file exists:
// the caller passes the checker (load.ts for a synchronous caller, main.ts imports it on demand).

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { UsageError } from "../protocol/errors.ts";
import { readRegularFile } from "../protocol/regular-file.ts";
import { type Config, type ConfigFlags, type FileConfig, resolveConfig } from "./config.ts";

type Env = Record<string, string | undefined>;

interface ConfigFile {
  path: string;
  text: string;
}

export interface ConfigFiles {
  readonly flags: ConfigFlags;
  readonly env: Env;
  readonly processCwd: string;
  readonly homeDir: string;
  readonly user: ConfigFile | undefined;
  readonly project: ConfigFile | undefined;
}

/** Checks a config file's parsed JSON; throws with the reason (file-config.ts `checkFileConfig`). */
export type FileConfigCheck = (value: unknown) => FileConfig;

/** Far more than any config needs; a larger one is a mistake (or a repository's trap) to tell. */
const MAX_CONFIG_BYTES = 1024 * 1024;

function readConfigFile(path: string): ConfigFile | undefined {
  try {
    // A FIFO there (a repository's, say) would hang the start: it is refused without blocking.
    return { path, text: readRegularFile(path, MAX_CONFIG_BYTES) };
  } catch (err) {
    // Only a missing file means "no config"; one that is a directory or unreadable is a mistake to tell.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    const reason =
      code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (err as Error).message;
    throw new UsageError(`cannot read config file ${path}: ${reason}`);
  }
}

/** The user's and the project's config files as they are now (either may be absent). */
export function readConfigFiles(flags: ConfigFlags, env: Env = process.env): ConfigFiles {
  const homeDir = homedir();
  const configHome = env.XDG_CONFIG_HOME || join(homeDir, ".config");
  const processCwd = process.cwd();
  const cwdForProject = flags.cwd ? resolve(processCwd, flags.cwd) : processCwd;
  return {
    flags,
    env,
    processCwd,
    homeDir,
    user: readConfigFile(join(configHome, "synapse", "config.json")),
    project: readConfigFile(join(cwdForProject, ".synapse", "config.json")),
  };
}

/** Whether a config file is there, so its checker must be loaded. */
export const hasConfigFile = (files: ConfigFiles) => files.user !== undefined || files.project !== undefined;

function checked(file: ConfigFile | undefined, check: FileConfigCheck | undefined): FileConfig | undefined {
  if (!file) return undefined;
  if (!check) throw new Error(`config file ${file.path} read without its checker`);
  try {
    return check(JSON.parse(file.text));
  } catch (err) {
    throw new UsageError(`invalid config file ${file.path}: ${(err as Error).message}`);
  }
}

/** The config: the files (checked by `check`, needed only when one exists), the environment, the flags. */
export function configFromFiles(files: ConfigFiles, check: FileConfigCheck | undefined): Config {
  return resolveConfig({
    flags: files.flags,
    env: files.env,
    userFile: checked(files.user, check),
    projectFile: checked(files.project, check),
    userFilePath: files.user?.path,
    projectFilePath: files.project?.path,
    processCwd: files.processCwd,
    homeDir: files.homeDir,
  });
}
