import { describe, expect, test } from "bun:test";
import { claudeToolInput, fromClaudeToolInput } from "../../src/protocol/claude-tool-input.ts";

describe("claudeToolInput: what a program written for Claude Code sees", () => {
  test.each([
    ["Read", { path: "a.ts", offset: 2 }, { path: "a.ts", offset: 2, file_path: "a.ts" }],
    ["Write", { path: "/w/b", content: "x" }, { path: "/w/b", content: "x", file_path: "/w/b" }],
    [
      "Edit",
      { path: "c", old_string: "1", new_string: "2" },
      { path: "c", old_string: "1", new_string: "2", file_path: "c" },
    ],
    ["Grep", { pattern: "x", path: "src" }, { pattern: "x", path: "src" }],
    ["Glob", { pattern: "*.ts", path: "src" }, { pattern: "*.ts", path: "src" }],
    ["Bash", { command: "ls" }, { command: "ls" }],
    ["Read", { offset: 1 }, { offset: 1 }],
    ["Read", "not an object", "not an object"],
  ])("%s %j → %j", (tool, input, seen) => {
    expect(claudeToolInput(tool, input)).toEqual(seen);
  });
});

describe("fromClaudeToolInput: a program's rewrite in our names", () => {
  const original = { path: "draft.txt", content: "x" };
  test.each([
    [
      "file_path changed",
      { path: "draft.txt", file_path: "final.txt", content: "x" },
      { path: "final.txt", content: "x" },
    ],
    ["path changed", { path: "final.txt", file_path: "draft.txt", content: "x" }, { path: "final.txt", content: "x" }],
    ["only file_path", { file_path: "final.txt", content: "y" }, { path: "final.txt", content: "y" }],
    ["echoed back", { path: "draft.txt", file_path: "draft.txt", content: "x" }, { path: "draft.txt", content: "x" }],
    ["only path", { path: "other.txt", content: "x" }, { path: "other.txt", content: "x" }],
    ["a file_path that is not a string reaches the schema", { file_path: 7 }, { path: 7 }],
  ])("%s", (_, rewritten, ours) => {
    expect(fromClaudeToolInput("Write", original, rewritten)).toEqual(ours);
  });

  test("other tools keep their input as the program wrote it", () => {
    expect(fromClaudeToolInput("Bash", { command: "ls" }, { command: "pwd", file_path: "x" })).toEqual({
      command: "pwd",
      file_path: "x",
    });
  });
});
