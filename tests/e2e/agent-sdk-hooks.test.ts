// The SDK's `hooks` option: callbacks registered in initialize, called back with hook_callback.
// A PreToolUse callback blocks a command (it never runs); a PostToolUse callback adds context the
// model reads with the tool's result.

import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HookCallback } from "@anthropic-ai/claude-agent-sdk";
import { collect, sdkOptions } from "../support/agent-sdk.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
const toolResultText = (body: any): string => JSON.stringify(body.messages.at(-1).content);

describe("SDK hooks", () => {
  test("PreToolUse blocks a command: it does not run and the model reads the reason", async () => {
    const s = await serve([
      { toolCalls: [{ id: "toolu_b1", name: "Bash", input: { command: "touch made.txt" } }] },
      { text: "ok" },
    ]);
    const heard: unknown[] = [];
    const block: HookCallback = async (input) => {
      heard.push(input);
      return { decision: "block", reason: "no shell today" };
    };
    const options = sdkOptions(s.url, { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [block] }] } });
    const run = await collect("make a file", options);
    expect(run.error).toBeUndefined();
    expect(existsSync(join(options.cwd, "made.txt"))).toBe(false);
    expect(toolResultText(s.requests[1]!.body)).toContain("no shell today");
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "touch made.txt" },
    });
  });

  test("PostToolUse adds context to the tool's result; a matcher for another tool is not called", async () => {
    const s = await serve([
      { toolCalls: [{ id: "toolu_r1", name: "Read", input: { path: "notes.txt" } }] },
      { text: "ok" },
    ]);
    let otherCalled = false;
    const addContext: HookCallback = async () => ({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "the notes are outdated" },
    });
    const other: HookCallback = async () => {
      otherCalled = true;
      return {};
    };
    const options = sdkOptions(s.url, {
      hooks: {
        PostToolUse: [
          { matcher: "Read", hooks: [addContext] },
          { matcher: "Write", hooks: [other] },
        ],
      },
    });
    writeFileSync(join(options.cwd, "notes.txt"), "buy milk\n");
    const run = await collect("read the notes", options);
    expect(run.error).toBeUndefined();
    const result = toolResultText(s.requests[1]!.body);
    expect(result).toContain("buy milk");
    expect(result).toContain("the notes are outdated");
    expect(otherCalled).toBe(false);
  });
});
