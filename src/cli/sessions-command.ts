// `synapse sessions`: the saved sessions of this directory (or, with --all, of every directory),
// newest first. A store that cannot be read is an error (exit 1), never an empty list.

import { homedir } from "node:os";
import type { Config } from "../config/config.ts";
import { EXIT } from "../protocol/errors.ts";
import { inertJson, inertLine } from "../render/inert.ts";
import { printErr, printOut } from "./output/print.ts";
import { formatSessionTable, listSessions, sessionsFor } from "../store/sessions-list.ts";

export async function runSessionsCommand(config: Config, opts: { all: boolean } = { all: false }): Promise<number> {
  // A StoreError (unreadable SYNAPSE_HOME) reaches main's handler: one line, exit 1.
  const warnings: string[] = [];
  const everything = await listSessions(config.home, (message) => warnings.push(`warning: ${inertLine(message)}\n`));
  await printErr(warnings.join(""));
  const sessions = opts.all ? everything : sessionsFor(everything, config.cwd);
  const elsewhere = everything.length - sessions.length;
  // stream-json too, as for synapse compact: a script that asked for JSON never gets the table.
  if (config.outputFormat !== "text") {
    await printOut(`${inertJson(sessions)}\n`);
    return EXIT.ok;
  }
  if (!sessions.length) {
    await printErr(opts.all ? `no sessions in ${config.home}\n` : `no sessions for ${config.cwd}\n`);
  } else {
    // Titles come from prompts, which may hold piped text an attacker wrote: shown inert.
    const shown = sessions.map((s) => ({
      ...s,
      title: inertLine(s.title),
      cwd: inertLine(s.cwd),
      note: s.note && inertLine(s.note),
    }));
    // Awaited: a table larger than a pipe buffer must reach a slow reader whole before exit.
    await printOut(formatSessionTable(shown, 48, homedir()));
  }
  if (elsewhere > 0) {
    await printErr(
      `${elsewhere} more session${elsewhere > 1 ? "s" : ""} in other directories: synapse sessions --all\n`,
    );
  }
  return EXIT.ok;
}
