// `synapse sessions`: the saved sessions, newest first.

import type { Config } from "../config/config.ts";
import { EXIT } from "../protocol/errors.ts";
import { formatSessionTable, listSessions } from "../store/sessions-list.ts";

export async function runSessionsCommand(config: Config): Promise<number> {
  const sessions = await listSessions(config.home, (message) => process.stderr.write(`warning: ${message}\n`));
  if (config.outputFormat === "json") {
    process.stdout.write(`${JSON.stringify(sessions)}\n`);
    return EXIT.ok;
  }
  if (!sessions.length) {
    process.stderr.write(`no sessions in ${config.home}\n`);
    return EXIT.ok;
  }
  process.stdout.write(formatSessionTable(sessions));
  return EXIT.ok;
}
