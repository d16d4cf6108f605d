// The system prompt: who the agent is, where it runs, and the project's own instructions.

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { readRegularFile } from "../protocol/regular-file.ts";

const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];
const MAX_INSTRUCTIONS_CHARS = 40_000;

export interface PromptEnvironment {
  cwd: string;
  platform: string;
  date: Date;
  /** Project instruction files found, nearest last. */
  instructions: { path: string; text: string }[];
}

// Sub-agents are started through Bash (API tool names cannot hold ":"); sub-agents themselves are
// not told about them (no nesting).
const TASK_LINES = [
  "",
  "Sub-agents: for independent investigations or pieces of work, call Bash with",
  '  task:explore --prompt "<what to find out>" --description "<short label>"   (read-only: Read, Glob, Grep)',
  '  task:general --prompt "<what to do>" --description "<short label>"         (every tool)',
  "Each sub-agent starts with a fresh context, sees only its prompt, and returns one final answer as the",
  "tool result, so write a complete, self-contained prompt. Several task calls in one turn run in",
  "parallel: use them to search several places at once or to split work that does not overlap. Do",
  "small lookups yourself; do not combine a task command with other shell syntax.",
];

export function renderSystemPrompt(
  env: PromptEnvironment,
  toolNames: string[],
  opts: { tasks?: boolean } = {},
): string {
  const lines = [
    "You are Synapse, an AI coding agent working in the user's terminal. You help with software",
    "engineering tasks: reading and changing code, running commands, explaining and reviewing.",
    "",
    "Work with the tools you are given; prefer doing over describing. Read files before editing",
    "them, make the smallest correct change, and check your work by running it where you can.",
    "Keep answers short and direct. When you are done, reply with the answer only.",
    `Tools: ${toolNames.join(", ")}.`,
    ...((opts.tasks ?? toolNames.includes("Bash")) ? TASK_LINES : []),
    "",
    "<environment>",
    `Working directory: ${env.cwd}`,
    `Platform: ${env.platform}`,
    `Today's date: ${env.date.toISOString().slice(0, 10)}`,
    "</environment>",
  ];
  for (const file of env.instructions) {
    lines.push("", `<project-instructions file="${file.path}">`, file.text.trim(), "</project-instructions>");
  }
  return lines.join("\n");
}

/**
 * The folders whose AGENTS.md / CLAUDE.md count, from `cwd` up: to the repository root (the nearest
 * folder with `.git`) or `home`, whichever comes first, never above. Outside both, `cwd` alone: a
 * file in /tmp or a shared parent folder was written by someone else, not by this project.
 */
export function instructionDirs(cwd: string, home: string, isRepoRoot: (dir: string) => boolean): string[] {
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (isRepoRoot(dir) || dir === home || dirname(dir) === dir) break;
  }
  const bounded = dirs.some(isRepoRoot) || dirs.includes(home);
  return bounded ? dirs : [cwd];
}

/** AGENTS.md / CLAUDE.md from the working directory up to the repository root or $HOME, nearest last. */
export function findInstructions(cwd: string, home: string = homedir()): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  let budget = MAX_INSTRUCTIONS_CHARS;
  for (const dir of instructionDirs(cwd, home, (d) => existsSync(join(d, ".git")))) {
    for (const name of INSTRUCTION_FILES) {
      const path = join(dir, name);
      if (budget <= 0 || !existsSync(path)) continue;
      try {
        // A FIFO or /dev/zero planted as AGENTS.md is skipped, not waited on; at most 4 bytes a character.
        const text = readRegularFile(path, budget * 4, { cut: true }).slice(0, budget);
        budget -= text.length;
        found.unshift({ path, text });
      } catch {
        // An unreadable instruction file is skipped, not fatal.
      }
    }
  }
  return found;
}
