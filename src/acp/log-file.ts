// `synapse acp`'s log: each line to stderr (editors show it in their agent log) and appended to
// <SYNAPSE_HOME>/logs/acp.log, for editors that drop stderr. The file is private (0600) and kept
// small: past LOG_MAX_BYTES it moves to acp.log.1, replacing the one before. Logging never throws.

import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";

export const LOG_MAX_BYTES = 1024 * 1024;

export function acpLogPath(home: string): string {
  return join(home, "logs", "acp.log");
}

export function createLog(home: string, toStderr: (text: string) => void): (line: string) => void {
  const path = acpLogPath(home);
  let fileOk = true;
  return (line) => {
    const text = `synapse acp: ${line}\n`;
    try {
      toStderr(text);
    } catch {
      // stderr gone: the file still gets it.
    }
    if (!fileOk) return;
    try {
      mkdirSync(join(home, "logs"), { recursive: true, mode: 0o700 });
      const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
      if (size > LOG_MAX_BYTES) renameSync(path, `${path}.1`);
      appendFileSync(path, `${new Date().toISOString()} ${text}`, { mode: 0o600 });
    } catch {
      // An unwritable log folder must not stop the agent; stderr has the line.
      fileOk = false;
    }
  };
}
