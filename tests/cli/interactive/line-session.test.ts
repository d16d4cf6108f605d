// TERM=dumb's one-line approval question and how a typed answer is read (pure).

import { describe, expect, test } from "bun:test";
import { approvalQuestion, parseApproval } from "../../../src/cli/interactive/line-session.ts";

describe("line session approvals", () => {
  test.each([
    ["y", true, "yes"],
    ["YES", false, "yes"],
    ["a", true, "always"],
    ["a", false, { no: "a" }],
    ["", true, { no: "" }],
    ["n", true, { no: "" }],
    ["use rg instead", true, { no: "use rg instead" }],
  ])("%j (exact %p) → %j", (line, exact, want) => {
    expect(parseApproval(line, exact)).toEqual(want as any);
  });
  test("the question names the call and the reason, inert, and offers 'always' only when exact", () => {
    const q = approvalQuestion(
      {
        tool: "Bash",
        input: { command: "rm -rf build\x1b[2J" },
        reason: "not in the allow list",
        rule: "Bash(rm -rf build)",
        exact: true,
      },
      80,
    );
    expect(q).not.toContain("\x1b");
    expect(q).toContain("Bash(rm -rf build");
    expect(q).toContain("a = yes and don't ask again for Bash(rm -rf build)");
    expect(approvalQuestion({ tool: "Bash", input: { command: "x" }, reason: "r", rule: "Bash(x)" }, 80)).not.toContain(
      "a = yes",
    );
  });
});
