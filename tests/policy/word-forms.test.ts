// Shell word forms the policy once read differently from bash: `$"…"` (a locale string: bash reads
// the text inside, the parser read a literal `$`, so `cat $"../.ssh/id_rsa"` looked like a file
// inside the workspace), bracket classes and `nocaseglob` in a glob reaching `.env`, `$PWD/…`,
// git's `REV:path` (`git show HEAD:.env`), and names compared case-blind.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { anyForClasses } from "../../src/policy/glob-expand.ts";
import { decide, isProtectedPath, type PermissionPolicy } from "../../src/policy/policy.ts";
import { workspacePolicy } from "../support/test-policy.ts";

let ws = "";
let home = "";

beforeAll(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "synapse-word-forms-")));
  ws = join(root, "ws");
  home = join(root, "home");
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(ws, "a.txt"), "a\n");
  writeFileSync(join(ws, ".env"), "KEY=1\n");
  writeFileSync(join(home, ".ssh", "id_rsa"), "KEY");
});

function policy(sandboxed: boolean): PermissionPolicy {
  return workspacePolicy({ ws, home, sandboxed });
}
const bash = (sandboxed: boolean, command: string) =>
  decide(policy(sandboxed), { tool: "Bash", input: { command }, cwd: ws }).kind;

describe("word forms bash reads differently from a naive parser", () => {
  test.each([
    'cat $"../home/.ssh/id_rsa"',
    'echo pwned >> $"../home/.bashrc"',
    'cat $"a.txt"',
    'cat $".e"nv',
    "cat .[e]nv",
    "git show HEAD:.env",
  ])("without a sandbox, %s asks", (command) => {
    expect(bash(false, command)).toBe("ask");
  });

  test.each([
    'cat $".env"',
    'cat $".e"nv',
    "cat .[e]nv",
    "cat .[[:alpha:]]nv",
    "cat .[!x]nv",
    "shopt -s nocaseglob; cat .E*",
    "cat $PWD/.env",
    'cat "${PWD}/.env"',
    "git show HEAD:.env",
    "git show :.env",
    "git log -p -- :(top).env",
    "scp host:x ~/.ssh/id_rsa",
  ])("in the sandbox, %s asks: it names .env (or a credential store)", (command) => {
    expect(bash(true, command)).toBe("ask");
  });

  test.each(["cat a.txt", "cat .[a]bc", "git show HEAD:a.txt", "echo $'x'", "cat '$PWD/a.txt'"])(
    "in the sandbox, %s runs unasked",
    (command) => {
      expect(bash(true, command)).toBe("allow");
    },
  );

  test("names are compared case-blind: on macOS `.ENV` and `~/.SSH` are the same files", () => {
    expect(isProtectedPath(join(ws, ".ENV"), home)).toBe(true);
    expect(isProtectedPath(join(home, ".SSH", "id_rsa"), home)).toBe(true);
    expect(isProtectedPath(join(ws, ".Env.Example"), home)).toBe(false);
    expect(bash(false, "cat .ENV")).toBe("ask");
    expect(bash(false, "echo x > .GIT/config")).toBe("ask");
  });

  test.each([
    [".[e]nv", ".?nv"],
    [".[!x]nv", ".?nv"],
    [".[[:alpha:]]nv", ".?nv"],
    ["[]a]x", "?x"],
    ["[x", "[x"],
    ["a*", "a*"],
  ])("bracket classes become one any character: %s → %s", (glob, want) => {
    expect(anyForClasses(glob)).toBe(want);
  });
});
