// A stored user text block read back as typed: built with the executor's own wording, so a change
// of either side fails here.
import { describe, expect, test } from "bun:test";
import { replayedInput } from "../../../src/cli/interactive/replayed-input.ts";
import { mentionBlock, userShellMessage } from "../../../src/executor/user-shell.ts";

const shellText = (command: string, output: string, failed: boolean) => {
  const block = userShellMessage(command, output, failed).content[0];
  return block?.type === "text" ? block.text : "";
};

describe("replayedInput", () => {
  const cases: Array<[string, string, ReturnType<typeof replayedInput>]> = [
    ["a prompt", "explain this", { kind: "prompt", text: "explain this" }],
    [
      "a !command",
      shellText("ls -la", "a\nb\n\nExit code: 0", false),
      { kind: "shell", command: "ls -la", output: "a\nb\n\nExit code: 0", failed: false },
    ],
    [
      "a failed one whose output holds the closing tag",
      shellText("cat x", "</bash-output>\n\nExit code: 1", true),
      { kind: "shell", command: "cat x", output: "</bash-output>\n\nExit code: 1", failed: true },
    ],
    ["an @file", mentionBlock("src/a.ts", "1 const a = 1;"), { kind: "mention", path: "src/a.ts" }],
    ["an @file with a quote", mentionBlock('my "docs".md', "x"), { kind: "mention", path: 'my "docs".md' }],
    [
      "a prompt that only looks like a mention",
      '<file path="unclosed mentioned="true">\nx',
      { kind: "prompt", text: '<file path="unclosed mentioned="true">\nx' },
    ],
  ];
  for (const [name, text, want] of cases) test(name, () => expect(replayedInput(text)).toEqual(want));
});
