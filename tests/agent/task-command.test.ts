import { describe, expect, test } from "bun:test";
import { isTaskCommand, parseTaskCommand, shellWords, taskCommandOf } from "../../src/agent/task-command.ts";

describe("parseTaskCommand", () => {
  const cases: Array<[string, unknown]> = [
    ['task:explore --prompt "find the parser"', { kind: "explore", prompt: "find the parser" }],
    ['task:general -p "fix it" -d "Fix bug"', { kind: "general", prompt: "fix it", description: "Fix bug" }],
    [
      "task:explore --description 'short' --prompt 'it'\\''s here'",
      { kind: "explore", prompt: "it's here", description: "short" },
    ],
    ['task:explore --prompt="a b" --description=c', { kind: "explore", prompt: "a b", description: "c" }],
    ['  task:explore -p "say \\"hi\\" and \\\\ \\$HOME"', { kind: "explore", prompt: 'say "hi" and \\ $HOME' }],
    ["task:explore -p one\\ word", { kind: "explore", prompt: "one word" }],
    ['task:explore -p "multi\nline"', { kind: "explore", prompt: "multi\nline" }],
    ['task:explore -p x -d "   "', { kind: "explore", prompt: "x" }],
  ];
  for (const [command, expected] of cases) {
    test(command, () => expect(parseTaskCommand(command)).toEqual(expected as any));
  }

  const malformed: Array<[string, RegExp]> = [
    ["task:explore", /--prompt is missing/],
    ['task:explore -p ""', /--prompt is missing or empty/],
    ["task:plan -p x", /unknown task kind "task:plan"/],
    ["task:explore -p", /-p needs a value/],
    ["task:explore -p x --model y", /unexpected "--model"/],
    ["task:explore -p x extra", /unexpected "extra"/],
    ['task:explore -p "open', /unterminated double quote/],
    ["task:explore -p 'open", /unterminated single quote/],
    ["task:explore -p x && rm -rf /", /unquoted "&"/],
    ["task:explore -p $(whoami)", /unquoted "\$"/],
  ];
  for (const [command, why] of malformed) {
    test(`refuses ${command}`, () => {
      const parsed = parseTaskCommand(command) as { error: string };
      expect(parsed.error).toMatch(why);
      // The error teaches the syntax.
      expect(parsed.error).toContain('task:explore --prompt "<what to find out>"');
    });
  }
});

test("shellWords splits like bash", () => {
  expect(shellWords(`a 'b c' "d e" f\\ g ""`)).toEqual(["a", "b c", "d e", "f g", ""]);
});

test("task commands are recognised only on Bash calls that start with task:", () => {
  expect(isTaskCommand(" task:explore -p x")).toBe(true);
  expect(isTaskCommand("echo task:explore")).toBe(false);
  expect(taskCommandOf("Bash", { command: "task:general -p x" })).toBe("task:general -p x");
  expect(taskCommandOf("Read", { command: "task:general -p x" })).toBeUndefined();
  expect(taskCommandOf("Bash", { command: 42 })).toBeUndefined();
});
