// The interactive session's one list of commands: the executor's, and `/theme`, which only this
// terminal acts on. `/help`, the `/` menu and Tab completion all read it, so none can miss one.

import { THEME_NAMES } from "../../config/config.ts";
import { COMMANDS, commandNames } from "../../executor/command-registry.ts";
import { type SlashCommand, fail } from "../../executor/slash-command.ts";

/**
 * `/theme` as `/help` lists it. The prompt takes the line before the executor sees it
 * (prompt-submit.ts): this run only answers a line that came some other way.
 */
const themeEntry: SlashCommand = {
  name: "theme",
  usage: "/theme [name]",
  summary: `the session's colours: ${THEME_NAMES.join(", ")}`,
  async run() {
    return fail("/theme sets the colours of an interactive session only");
  },
};

export const INTERACTIVE_COMMANDS: readonly SlashCommand[] = [...COMMANDS, themeEntry];

/** Every name Tab completes (aliases too). */
export const INTERACTIVE_COMMAND_NAMES: readonly string[] = commandNames(INTERACTIVE_COMMANDS);
