// `/init`: the model studies the project and writes AGENTS.md, the instructions every later
// session here reads (agent/system-prompt.ts), as Claude Code's /init writes CLAUDE.md. It is an
// ordinary prompt: the model's reads and its Write pass the permission gate like any others.

import { type SlashCommand, act } from "../slash-command.ts";

const INIT_PROMPT = `Study this repository and write AGENTS.md in the working directory: the instructions that \
future coding-agent sessions here read before they start. Keep it short and specific to this project:

1. The commands that matter: install, build, lint, type-check, run the whole test suite, run one test.
2. The architecture a newcomer cannot see from one file: the main parts, where they live, how a request or \
a build flows through them.
3. The conventions that differ from the usual defaults: style, naming, error handling, how tests are \
written, what must not be changed or committed.

Read the README, the build and package files, the CI configuration, and any AGENTS.md, CLAUDE.md, \
.cursorrules, .cursor/rules/ or .github/copilot-instructions.md, and keep what still holds from them. \
If AGENTS.md already exists, improve it rather than starting over. Do not list every file, repeat generic \
advice, or state anything you did not see in the repository. Begin the file with "# AGENTS.md" and one line \
on what it is for.`;

/** The prompt `/init` sends; `focus` (its arguments) is what the user wants stressed. */
export function initPrompt(focus: string): string {
  const extra = focus.trim();
  return extra ? `${INIT_PROMPT}\n\nGive particular attention to: ${extra}` : INIT_PROMPT;
}

export const initCommand: SlashCommand = {
  name: "init",
  usage: "/init [focus]",
  summary: "study the project and write AGENTS.md, the instructions every later session here reads",
  run: (args) => act({ kind: "RunAgent", text: initPrompt(args) }),
};
