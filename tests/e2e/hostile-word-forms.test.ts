// Word forms bash reads one way and the policy read another, through the compiled binary. Without
// a sandbox, `$"…"` (bash's locale string) hid a path from the fail-closed proof: `cat
// $"../.ssh/id_rsa"` read the key and `echo … >> $"../.bashrc"` wrote outside the workspace. In
// the sandbox (which does not hide the workspace's `.env`), bracket classes, `nocaseglob`, `$PWD`
// and git's `REV:path` named `.env` without the policy seeing it.

import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { runScriptedTurn } from "../support/binary.ts";
import { HAVE_BWRAP, NEEDS_BWRAP, testBase } from "../sandbox/support.ts";

const serve = fakeLLMPerTest();
const SSH = "CANARY-SSH-wf-31a7";
const ENV = "CANARY-ENV-wf-90c2";
const bash = (command: string): ScriptedReply => ({ toolCalls: [{ name: "Bash", input: { command } }] });

function world() {
  const dir = realpathSync(mkdtempSync(join(testBase(), "synapse-e2e-words-")));
  const ws = join(dir, "ws");
  mkdirSync(ws);
  mkdirSync(join(dir, ".ssh"));
  writeFileSync(join(dir, ".ssh", "id_rsa"), `${SSH}\n`);
  writeFileSync(join(dir, ".bashrc"), "# rc\n");
  writeFileSync(join(ws, ".env"), `TOKEN=${ENV}\n`);
  writeFileSync(join(ws, "a.txt"), "hello\n");
  // A user who once committed their .env: git still holds it.
  execFileSync("git", ["init", "-q", ws]);
  execFileSync("git", ["-C", ws, "add", "-f", ".env"]);
  const env = {
    HOME: dir,
    XDG_DATA_HOME: join(dir, "data"),
    XDG_CONFIG_HOME: join(dir, "config"),
    SYNAPSE_HOME: join(dir, "data", "synapse"),
  };
  return { dir, ws, env };
}

async function attack(script: ScriptedReply[], flags: string[]) {
  const w = world();
  const s = await serve([...script, { text: "done" }]);
  const r = await runScriptedTurn(s.url, { env: w.env, cwd: w.ws, flags });
  const seen = { requests: JSON.stringify(s.requests.map((q) => q.body)), stdout: r.stdout };
  for (const [where, text] of Object.entries(seen))
    for (const secret of [SSH, ENV])
      expect({ where, secret, leaked: text.includes(secret) }).toEqual({ where, secret, leaked: false });
  expect(readFileSync(join(w.dir, ".bashrc"), "utf8")).toBe("# rc\n");
  return r.stderr.split("\n").filter((l) => l.startsWith("permission denied"));
}

describe("word forms", () => {
  test('without a sandbox: $"…" is not a literal `$`', async () => {
    const script = [
      bash('cat $"../.ssh/id_rsa"'),
      bash('echo pwned >> $"../.bashrc"'),
      bash('cat $".env"'),
      bash("cat a.txt"),
    ];
    expect(await attack(script, ["--sandbox", "full-access"])).toHaveLength(3);
  }, 90_000);

  test.skipIf(!HAVE_BWRAP)(
    `in the sandbox: globs, $PWD, $"…" and REV:path that name .env ask${NEEDS_BWRAP}`,
    async () => {
      const script = [
        bash('cat $".env"'),
        bash("cat .[e]nv"),
        bash("shopt -s nocaseglob; cat .E*"),
        bash("cat $PWD/.env"),
        bash("git show :.env"),
        bash("git show HEAD:.env 2>/dev/null; git log -p -- :/.env"),
      ];
      expect(await attack(script, [])).toHaveLength(6);
    },
    90_000,
  );
});
