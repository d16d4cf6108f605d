// A stored user text block as the user typed it, for a resumed session's replay: a `!command` is
// stored as the words the model reads (executor/user-shell.ts: userShellMessage) and an `@file`'s
// contents as a block of their own (mentionBlock); shown raw, the replay would print XML tags and
// the file's whole text as prompts. Pure; tests/cli/interactive/replayed-input.test.ts builds its
// cases with the executor's own functions, so a change of either wording fails there.

import { parseUserShellText } from "../../protocol/user-shell-text.ts";

export type ReplayedInput =
  | { kind: "prompt"; text: string }
  | { kind: "shell"; command: string; output: string; failed: boolean }
  | { kind: "mention"; path: string };

const MENTION = /^<file path=("(?:[^"\\]|\\.)*") mentioned="true">\n/;

export function replayedInput(text: string): ReplayedInput {
  const shell = parseUserShellText(text);
  if (shell) return { kind: "shell", ...shell };
  const mention = MENTION.exec(text);
  if (mention?.[1]) {
    try {
      const path: unknown = JSON.parse(mention[1]);
      if (typeof path === "string") return { kind: "mention", path };
    } catch {
      // Not our block after all (the user typed something like it): shown as the prompt it is.
    }
  }
  return { kind: "prompt", text };
}
