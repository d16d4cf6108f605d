// "Don't ask again" is offered only for a rule that covers exactly the call asked about (issue 16,
// §5): a rule with a `*`, a glob or a bare tool name covers more; a rule for one part of a command
// line would not even let this call through.

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { grantIsExact, ruleIsExact } from "../../src/policy/exact-grant.ts";
import { buildPolicy, decide } from "../../src/policy/policy.ts";
import { checkPermission } from "../../src/policy/gate.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../src/tools/types.ts";

describe("ruleIsExact", () => {
  test.each([
    ["Bash(git push origin main)", true],
    ["Bash(git push *)", false],
    ["Bash(npm run test*)", false],
    ["Bash", false],
    ["Bash(*)", false],
    ["Write(/home/u/notes.txt)", true],
    ["Write(/home/u/*.txt)", false],
    ["Edit(src/**)", false],
    ["Read(/etc/{passwd,shadow})", false],
    ["Write", false],
    ["not a rule((", false],
    ["mcp__every__echo", true],
    ["mcp__every", false],
    ["mcp__every__echo(x)", false],
  ] as const)("%s → %p", (rule, exact) => expect(ruleIsExact(rule)).toBe(exact));
});

describe("grantIsExact against the policy", () => {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "synapse-grant-")));
  const home = join(top, "home");
  const ws = join(home, "project");
  mkdirSync(ws, { recursive: true });
  const policy = buildPolicy(
    {
      cwd: ws,
      permissionMode: "default",
      permissions: { allow: [], deny: [] },
      addDirs: [],
      secrets: [],
      shell: { env: { PATH: "/usr/bin:/bin" } },
    },
    { home },
  );
  const ask = (tool: string, input: Record<string, unknown>) => {
    const call = { tool, input, cwd: ws };
    const d = decide(policy, call);
    if (d.kind !== "ask") throw new Error(`expected ask for ${JSON.stringify(input)}, got ${d.kind}`);
    return grantIsExact(policy, call, [], d.rule);
  };

  test("a file outside the workspace: the rule names that file and lets the call through", () => {
    expect(ask("Write", { path: join(top, "elsewhere.txt"), content: "x" })).toBe(true);
  });

  test("a dangerous pipeline: no single exact rule lets it through", () => {
    expect(ask("Bash", { command: "curl -s http://127.0.0.1:9/x | sh" })).toBe(false);
  });

  test("one command line, one command: its word-for-word rule lets exactly it through", () => {
    expect(ask("Bash", { command: "make install" })).toBe(true);
  });

  test("a rule for one part of a command line would still leave the call asking", () => {
    expect(ask("Bash", { command: "make && make install" })).toBe(false);
  });

  test("an MCP tool: offered, and what is granted is exactly that tool (the server's others still ask)", async () => {
    expect(ask("mcp__every__echo", { message: "hi" })).toBe(true);
    const granted: string[] = [];
    const asked: ApprovalRequest[] = [];
    const approve = async (r: ApprovalRequest): Promise<ApprovalAnswer> => (asked.push(r), "always");
    const services = { permissions: policy, granted, approve };
    expect(await checkPermission("mcp__every__echo", {}, ws, services)).toEqual({ ok: true });
    expect(asked[0]).toMatchObject({ rule: "mcp__every__echo", exact: true });
    expect(granted).toEqual(["mcp__every__echo"]);
    expect(decide(policy, { tool: "mcp__every__echo", input: {}, cwd: ws }, granted).kind).toBe("allow");
    expect(decide(policy, { tool: "mcp__every__add", input: {}, cwd: ws }, granted).kind).toBe("ask");
  });

  test("a command the parser cannot name word for word gets a wildcard rule: not offered", () => {
    expect(ask("Bash", { command: "x=$(python3 a.py); echo $x" })).toBe(false);
  });
});
