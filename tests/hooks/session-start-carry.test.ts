// SessionStart across the runtimes of one process: a session reopened after a /rewind carries on
// (no second SessionStart, or the first one still to come with its own source); /clear's says clear.

import { describe, expect, test } from "bun:test";
import { SessionHooks, type StartSource, type StartState } from "../../src/hooks/session-hooks.ts";
import type { HookEventInput } from "../../src/protocol/hook-events.ts";

const signal = new AbortController().signal;

function hooksHearing(startSource: StartSource) {
  const heard: HookEventInput[] = [];
  const hooks = new SessionHooks({
    sessionId: "s1",
    transcriptPath: "/t",
    cwd: "/w",
    startSource,
    permissionMode: () => "default",
    warn: () => {},
  });
  hooks.addSource({
    async run(event) {
      heard.push(event);
      return [];
    },
  });
  const starts = (): string[] =>
    heard.filter((e) => e.hook_event_name === "SessionStart").map((e) => ("source" in e ? e.source : ""));
  return { hooks, starts };
}

describe("SessionHooks.continueStart", () => {
  const TABLE: [string, StartSource, StartState, string[]][] = [
    ["a reopen after the start fired: none again", "resume", { source: "startup", fired: true }, []],
    [
      "a reopen before any prompt: the first one, as it was",
      "resume",
      { source: "startup", fired: false },
      ["startup"],
    ],
    ["a resumed session reopened before any prompt", "resume", { source: "resume", fired: false }, ["resume"]],
    ["/clear's new session", "startup", { source: "clear", fired: false }, ["clear"]],
  ];
  test.each(TABLE)("%s", async (_, opened, carried, want) => {
    const { hooks, starts } = hooksHearing(opened);
    hooks.continueStart(carried);
    await hooks.userPromptSubmit("one", signal);
    await hooks.userPromptSubmit("two", signal);
    expect(starts()).toEqual(want);
  });

  test("startState says what fired", async () => {
    const { hooks } = hooksHearing("resume");
    expect(hooks.startState()).toEqual({ source: "resume", fired: false });
    await hooks.userPromptSubmit("one", signal);
    expect(hooks.startState()).toEqual({ source: "resume", fired: true });
  });
});
