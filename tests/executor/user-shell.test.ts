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
