// `!command` (bash mode): which submissions are commands, and what the model is told.

import { expect, test } from "bun:test";
import { userShellCommand, userShellMessage } from "../../src/executor/user-shell.ts";

test("a submission starting with ! is a shell command; an empty one is not", () => {
  const table: [string, string | undefined][] = [
    ["!ls -la", "ls -la"],
    ["  ! git status ", "git status"],
    ["!echo a\nb", "echo a\nb"],
    ["!", undefined],
    ["!   ", undefined],
    ["ls !", undefined],
    ["/help", undefined],
  ];
  for (const [text, want] of table) expect([text, userShellCommand(text)]).toEqual([text, want]);
});

test("the model is told what the user ran and what it printed, failures marked", () => {
  const ok = userShellMessage("ls", "a\nb", false);
  expect(ok.role).toBe("user");
  const text = (ok.content[0] as { text: string }).text;
  expect(text).toContain("<bash-input>ls</bash-input>");
  expect(text).toContain("<bash-output>a\nb</bash-output>");
  const failed = (userShellMessage("false", "exit 1", true).content[0] as { text: string }).text;
  expect(failed).toContain('<bash-output failed="true">exit 1</bash-output>');
});

test("@mentions: plain and quoted paths, each once, trailing punctuation left out; e-mail addresses are no mention", async () => {
  const { mentionedPaths } = await import("../../src/executor/user-shell.ts");
  expect(mentionedPaths('read @src/a.ts, then @"my docs/b.md" and @src/a.ts.')).toEqual(["src/a.ts", "my docs/b.md"]);
  expect(mentionedPaths("mail me@example.com")).toEqual([]);
  expect(mentionedPaths("@ alone")).toEqual([]);
});
