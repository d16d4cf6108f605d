// Which tools each agent gets: one decision (tools/registry.ts) for the main thread, the sub-agent
// prompt and the worker. Plan mode and explore tasks look but do not touch.
import { expect, test } from "bun:test";
import type { PermissionMode } from "../../src/config/config.ts";
import { agentKind, toolsFor } from "../../src/tools/registry.ts";

const ALL = ["Bash", "Read", "Write", "Edit", "Glob", "Grep"];
const LOOK = ["Read", "Glob", "Grep"];

test.each<[PermissionMode, "explore" | "general" | undefined, string, string[]]>([
  ["default", undefined, "main", ALL],
  ["accept-edits", undefined, "main", ALL],
  ["bypass", undefined, "main", ALL],
  ["plan", undefined, "plan", LOOK],
  ["default", "general", "main", ALL],
  ["bypass", "general", "main", ALL],
  ["plan", "general", "plan", LOOK],
  ["default", "explore", "explore", LOOK],
  ["bypass", "explore", "explore", LOOK],
  ["plan", "explore", "explore", LOOK],
])("mode %s, task %s: a %s agent", (mode, task, kind, tools) => {
  expect(agentKind(mode, task)).toBe(kind as ReturnType<typeof agentKind>);
  expect([...toolsFor(agentKind(mode, task)).keys()].sort()).toEqual([...tools].sort());
});
