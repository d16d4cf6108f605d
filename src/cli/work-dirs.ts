// Checks the working directory (-C) and the --add-dir folders before a session opens, on the
// headless and the interactive path alike: a session in a folder that is not there would run every
// command and tool against nothing.

import { statSync } from "node:fs";
import type { Config } from "../config/config.ts";
import { UsageError } from "../protocol/errors.ts";

function kind(path: string): "missing" | "folder" | "other" {
  try {
    return statSync(path).isDirectory() ? "folder" : "other";
  } catch {
    return "missing";
  }
}

export function checkWorkDirs(config: Pick<Config, "cwd" | "addDirs">): void {
  const cwd = kind(config.cwd);
  if (cwd === "missing") throw new UsageError(`working directory does not exist: ${config.cwd}`);
  if (cwd === "other") throw new UsageError(`working directory is not a directory: ${config.cwd}`);
  for (const dir of config.addDirs) {
    const k = kind(dir);
    if (k === "missing") throw new UsageError(`--add-dir folder does not exist: ${dir}`);
    if (k === "other") throw new UsageError(`--add-dir is not a folder: ${dir}`);
  }
}
