// An approver's edited input (the Agent SDK's updatedInput): the gate passes it on, and it is
// judged again, where a deny (a rule, plan mode) refuses it though the approver said yes.

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkPermission, judgeEdited } from "../../src/policy/gate.ts";
import { buildPolicy } from "../../src/policy/policy.ts";
import type { PermissionMode } from "../../src/config/config.ts";

const top = realpathSync(mkdtempSync(join(tmpdir(), "synapse-edited-")));
const home = join(top, "home");
const ws = join(home, "project");
mkdirSync(ws, { recursive: true });
const policyFor = (mode: PermissionMode, deny: string[] = []) =>
  buildPolicy(
    {
      cwd: ws,
      permissionMode: mode,
      permissions: { allow: [], deny },
      addDirs: [],
      secrets: [],
      shell: { env: { PATH: "/usr/bin:/bin" } },
    },
    { home },
  );

describe("an edited answer", () => {
  test("the gate passes the edited input on instead of allowing the model's", async () => {
    const edited = { path: join(top, "b.txt"), content: "y" };
    const services = { permissions: policyFor("default"), granted: [], approve: async () => ({ edited }) };
    const out = await checkPermission("Write", { path: join(top, "a.txt"), content: "x" }, ws, services);
    expect(out).toEqual({ ok: true, edited });
  });

  const cases: [string, PermissionMode, string[], Record<string, unknown>, boolean][] = [
    ["a path the approver chose outside the workspace", "default", [], { path: join(top, "c.txt"), content: "" }, true],
    [
      "a path a deny rule covers",
      "default",
      [`Write(${top}/secret/**)`],
      { path: join(top, "secret/k"), content: "" },
      false,
    ],
    ["a write in plan mode", "plan", [], { path: join(ws, "x.txt"), content: "" }, false],
    ["a command a deny rule covers", "bypass", ["Bash(rm *)"], { command: "rm -rf ." }, false],
  ];
  for (const [name, mode, deny, input, ok] of cases)
    test(`${name}: ${ok ? "runs" : "refused"}`, () => {
      const tool = "command" in input ? "Bash" : "Write";
      const judged = judgeEdited(tool, input, ws, { permissions: policyFor(mode, deny), granted: [] });
      expect(judged.ok).toBe(ok);
      if (!judged.ok) expect(judged.message).toContain("Permission denied for the edited input");
    });
});
