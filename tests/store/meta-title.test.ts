// A session's title from its first prompt: pure. A `!command` is titled by its command, an
// `@file`'s contents (a block after the prompt) stay out of it.
import { expect, test } from "bun:test";
import { mentionBlock, userShellMessage } from "../../src/executor/user-shell.ts";
import type { Message } from "../../src/protocol/message.ts";
import { titleFrom } from "../../src/store/meta.ts";

const user = (...texts: string[]): Message => ({
  id: "m1",
  role: "user",
  content: texts.map((text) => ({ type: "text" as const, text })),
  ts: 0,
});

test("titleFrom", () => {
  const table: Array<[string, Message, string | undefined]> = [
    ["a prompt, whitespace collapsed", user("fix   the\nbuild"), "fix the build"],
    ["a !command: its command", userShellMessage("git   status", "On branch main", false), "git status"],
    ["a failed !command too", userShellMessage("false", "", true), "false"],
    ["an @file prompt: the prompt only", user("explain @a.ts", mentionBlock("a.ts", "const a = 1;")), "explain @a.ts"],
    ["a long prompt is cut", user("x".repeat(100)), `${"x".repeat(79)}…`],
    ["no text", user(), undefined],
    ["an answer is no title", { ...user("hello"), role: "assistant" }, undefined],
  ];
  for (const [name, message, want] of table) expect([name, titleFrom(message)]).toEqual([name, want]);
});
