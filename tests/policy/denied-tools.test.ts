// Which tools a deny list refuses every call of (and so leaves out of the model's offer): table-driven.

import { describe, expect, test } from "bun:test";
import { deniesWholeTool } from "../../src/policy/denied-tools.ts";

const ALL = ["Bash", "Read", "Write", "Edit", "Glob", "Grep"];

describe("deniesWholeTool", () => {
  const cases: Array<[string[], string[]]> = [
    [[], []],
    [["Write"], ["Write", "Edit"]],
    [["edit"], ["Write", "Edit"]],
    [["Write(*)"], ["Write", "Edit"]],
    [["Write(**)"], ["Write", "Edit"]],
    [["Write( )"], ["Write", "Edit"]],
    [["Read"], ["Read", "Glob", "Grep"]],
    [["Glob"], ["Glob"]],
    [["Bash"], ["Bash"]],
    [["Bash(*)"], ["Bash"]],
    // A pattern refuses some calls only: the tool stays offered.
    [["Write(src/**)"], []],
    [["Bash(rm *)", "Read(~/.ssh/**)"], []],
    // An invalid rule is build-policy.ts's to report, not a reason to drop a tool.
    [["Wrte"], []],
    [["mcp__files"], []],
  ];
  for (const [deny, removed] of cases)
    test(`${JSON.stringify(deny)} → ${JSON.stringify(removed)}`, () => {
      expect(ALL.filter((tool) => deniesWholeTool(deny, tool))).toEqual(removed);
    });

  test("MCP rules: a server's every tool, or one tool; never a tool of another server", () => {
    expect(deniesWholeTool(["mcp__files"], "mcp__files__read")).toBe(true);
    expect(deniesWholeTool(["mcp__files__read"], "mcp__files__read")).toBe(true);
    expect(deniesWholeTool(["mcp__files__read"], "mcp__files__write")).toBe(false);
    expect(deniesWholeTool(["mcp__files"], "mcp__filesystem__read")).toBe(false);
    expect(deniesWholeTool(["Write", "Read"], "mcp__files__read")).toBe(false);
    expect(deniesWholeTool(["mcp__bad name"], "mcp__bad name__x")).toBe(false);
  });
});
