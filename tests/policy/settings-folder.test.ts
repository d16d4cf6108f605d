// The folders that hold settings (`.git`, `.synapse`): without a sandbox, moving one away, moving
// another into its place or copying into it changes git's config without naming `.git/config`, so
// none of that is proven harmless; a move's sources are written too, so an allow rule for `mv`
// does not take a file out of the home folder. Reading them stays unasked.
import { beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decide, type PermissionPolicy } from "../../src/policy/policy.ts";
import { workspacePolicy } from "../support/test-policy.ts";

let ws = "";
let home = "";

beforeAll(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "synapse-settings-folder-")));
  ws = join(root, "ws");
  home = join(root, "home");
  mkdirSync(join(ws, "mine"), { recursive: true });
  mkdirSync(join(ws, ".synapse"));
  mkdirSync(home);
  execFileSync("git", ["init", "-q", ws]);
  writeFileSync(join(ws, "a.txt"), "a\n");
  writeFileSync(join(ws, "mine", "config"), "[core]\n");
  writeFileSync(join(home, ".bashrc"), "# rc\n");
  // A hostile repository's link to its own .git: writing through it is writing .git.
  symlinkSync(join(ws, ".git"), join(ws, "g"));
});

function policy(allow: string[] = []): PermissionPolicy {
  return workspacePolicy({ ws, home, sandboxed: false, allow });
}
const bash = (p: PermissionPolicy, command: string) => decide(p, { tool: "Bash", input: { command }, cwd: ws }).kind;

describe("without a sandbox, the settings folders", () => {
  test.each([
    "mv .git old",
    "mv -- .git old",
    "mv mine .git",
    "mv -t .git mine/config",
    "cp mine/config .git/",
    "cp mine/config .git/hooks/..",
    "cp mine/config g",
    "mv .synapse s2",
    "echo ../mine > .git/commondir",
    "touch .git/commondir",
  ])("%s asks", (command) => {
    expect(bash(policy(), command)).toBe("ask");
  });

  test.each(["ls .git", "cat .git/HEAD", "mv a.txt b.txt", "cp a.txt .gitignore", "mkdir -p mine/.github"])(
    "%s still runs unasked",
    (command) => {
      expect(bash(policy(), command)).toBe("allow");
    },
  );

  test("Write of .git/commondir asks: git would read its config from the folder it names", () => {
    expect(
      decide(policy(), { tool: "Write", input: { path: ".git/commondir", content: "../mine\n" }, cwd: ws }).kind,
    ).toBe("ask");
  });

  test("an allow rule for mv does not move a file out of the home folder: a move writes its sources", () => {
    const p = policy(["Bash(mv *)"]);
    expect(bash(p, "mv a.txt b.txt")).toBe("allow");
    expect(bash(p, "mv ~/.bashrc stolen")).toBe("ask");
    expect(bash(p, "mv -t mine ~/.bashrc")).toBe("ask");
  });
});
