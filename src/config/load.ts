// Reads the config files and the process environment once and resolves them, for a synchronous
// caller (each `synapse acp` session, tests). The command line's own start uses config-files.ts
// and loads the files' schemas only when a file exists.

import type { Config, ConfigFlags } from "./config.ts";
import { configFromFiles, readConfigFiles } from "./config-files.ts";
import { checkFileConfig } from "./file-config.ts";

/** The keys a config file may hold are checked by their schemas in file-config.ts. */
export { checkFileConfig };

export function loadConfig(flags: ConfigFlags, env: Record<string, string | undefined> = process.env): Config {
  return configFromFiles(readConfigFiles(flags, env), checkFileConfig);
}
