// The README's newest claims (Safety: rules), checked against the compiled binary as a new user
// would: an allow rule that names a command word for word does not let that command redirect into
// a protected file (no rule names a redirection), a refusal's reason reads as a sentence, and the
// sandbox keeps `.git/hooks` read-only in a repository that had none.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { homeEnv, providerEnv, runBinary, tempHome } from "../support/binary.ts";
import { HAVE_BWRAP, NEEDS_BWRAP } from "../sandbox/support.ts";

const serve = fakeLLMPerTest();
/** A hostile repository's file: as `.git/config` it would run a command at the user's next `git status`. */
const HOSTILE = "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch /tmp/pwned; false\n";
const GIT_CONFIG = "[core]\n\trepositoryformatversion = 0\n";

function repository() {
  const home = tempHome();
  const ws = join(home.dir, "ws");
  mkdirSync(join(ws, ".git"), { recursive: true });
  writeFileSync(join(ws, ".git", "config"), GIT_CONFIG);
  writeFileSync(join(ws, "notes.md"), HOSTILE);
  writeFileSync(join(ws, ".env"), "TOKEN=kept\n");
  return { env: homeEnv(home.dir), ws };
}

/** The model runs `command`; what the run refused (json `permission_denials`) and the result it got. */
async function bashCall(command: string, args: string[]) {
  const { env, ws } = repository();
  const fake: FakeLLM = await serve([{ toolCalls: [{ name: "Bash", input: { command } }] }, { text: "done" }]);
  const r = await runBinary({
    args: ["-o", "json", ...args, "go"],
    cwd: ws,
    env: { ...env, ...providerEnv(fake.url) },
  });
  expect(r.code).toBe(0);
  const last = fake.requests.at(-1)!.body.messages.at(-1).content;
  const result = last.find((b: { type: string }) => b.type === "tool_result").content as string;
  return { ws, denials: JSON.parse(r.stdout).permission_denials as unknown[], result };
}

const NO_SANDBOX = ["--sandbox", "full-access"];

describe("no rule names a redirection, so none lets a command redirect into a protected file", () => {
  test("without a sandbox: `Bash(cat notes.md)` runs `cat notes.md`, not `cat notes.md > .git/config`", async () => {
    const rule = ["--allow", "Bash(cat notes.md)"];
    const alone = await bashCall("cat notes.md", [...NO_SANDBOX, ...rule]);
    expect(alone.denials).toEqual([]);
    expect(alone.result).toContain("fsmonitor");
    const into = await bashCall("cat notes.md > .git/config", [...NO_SANDBOX, ...rule]);
    expect(into.denials).toHaveLength(1);
    expect(readFileSync(join(into.ws, ".git", "config"), "utf8")).toBe(GIT_CONFIG);
    // The refusal names the only rule that would let it: the bare `Bash`, every command.
    expect(into.result).toContain("the command touches .git/config, git's config or hooks");
    expect(into.result).toContain("--allow 'Bash')");
  });

  test("a secrets file too: `Bash(echo hi)` does not let `echo hi > .env` overwrite it", async () => {
    const into = await bashCall("echo hi > .env", [...NO_SANDBOX, "--allow", "Bash(echo hi)"]);
    expect(into.denials).toHaveLength(1);
    expect(readFileSync(join(into.ws, ".env"), "utf8")).toBe("TOKEN=kept\n");
  });

  test.skipIf(!HAVE_BWRAP)(`in the sandbox as well (its kernel leaves .env writable)${NEEDS_BWRAP}`, async () => {
    const into = await bashCall("echo hi > .env", ["--allow", "Bash(echo hi)"]);
    expect(into.denials).toHaveLength(1);
    expect(readFileSync(join(into.ws, ".env"), "utf8")).toBe("TOKEN=kept\n");
  });

  test("the bare `Bash` rule means every command, redirections included", async () => {
    const into = await bashCall("cat notes.md > .git/config", [...NO_SANDBOX, "--allow", "Bash"]);
    expect(into.denials).toEqual([]);
    expect(readFileSync(join(into.ws, ".git", "config"), "utf8")).toBe(HOSTILE);
  });
});

describe("a refusal's reason reads as a sentence", () => {
  test("moving .git away without a sandbox: `it writes <path>, which is the folder of git's settings`", async () => {
    const refused = await bashCall("mv .git old", NO_SANDBOX);
    expect(refused.denials).toHaveLength(1);
    expect(refused.result).toContain(
      `(it writes ${join(refused.ws, ".git")}, which is the folder of git's or synapse's settings)`,
    );
  });
});

describe("the sandbox keeps .git/hooks read-only (README: Sandbox)", () => {
  test.skipIf(!HAVE_BWRAP)(
    `a repository without one gets an empty one, which no command can fill${NEEDS_BWRAP}`,
    async () => {
      // The name is spelled through a variable, so the policy cannot see it: only the kernel holds it.
      const plant =
        'd=.git; mkdir -p $d/hooks; printf "#!/bin/sh\\ntouch pwned\\n" > $d/hooks/post-commit; echo planted';
      const run = await bashCall(plant, []);
      expect(run.denials).toEqual([]);
      expect(run.result).toContain("Read-only file system");
      expect(existsSync(join(run.ws, ".git", "hooks", "post-commit"))).toBe(false);
      expect(readdirSync(join(run.ws, ".git", "hooks"))).toEqual([]);
    },
  );
});

describe("the sandbox keeps a linked worktree's .git file read-only", () => {
  test.skipIf(!HAVE_BWRAP)(`no command rewrites, moves or removes it${NEEDS_BWRAP}`, async () => {
    const home = tempHome();
    const main = join(home.dir, "main");
    const tree = join(home.dir, "tree");
    const git = (cwd: string, ...args: string[]) =>
      expect(Bun.spawnSync(["git", "-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd }).exitCode).toBe(0);
    mkdirSync(main);
    git(main, "init", "-q");
    git(main, "commit", "-q", "--allow-empty", "-m", "first");
    git(main, "worktree", "add", "-q", tree);
    const link = readFileSync(join(tree, ".git"), "utf8");
    // A folder the command makes, named where git looks: its config's fsmonitor would run at the
    // user's next `git status`. The name goes through a variable, which the policy cannot read.
    const plant = 'd=.git; echo "gitdir: evil" > $d; mv $d moved; rm -f $d; echo tried';
    const fake = await serve([{ toolCalls: [{ name: "Bash", input: { command: plant } }] }, { text: "done" }]);
    const r = await runBinary({
      args: ["-o", "json", "go"],
      cwd: tree,
      env: { ...home.env, ...providerEnv(fake.url) },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).permission_denials).toEqual([]);
    expect(readFileSync(join(tree, ".git"), "utf8")).toBe(link);
    expect(existsSync(join(tree, "moved"))).toBe(false);
  });
});
