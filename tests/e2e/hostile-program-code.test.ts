// Programs on the read-only list whose arguments are code or a second file: jq's filter can load a
// module from any path (`import "/home/u/.docker/config" as $c; $c` prints the registry tokens),
// and `xxd in out` writes `out`. Without a sandbox (`--sandbox full-access`) neither is proven
// harmless: headless, both are refused, and nothing reaches the model.

import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
const TOKEN = "CANARY-DOCKER-8d2c71";
const bash = (command: string): ScriptedReply => ({ toolCalls: [{ name: "Bash", input: { command } }] });

test("jq modules and xxd's output file are not proven harmless without a sandbox", async () => {
  const home = tempHome();
  const ws = join(home.dir, "ws");
  mkdirSync(ws);
  mkdirSync(join(home.dir, ".docker"));
  writeFileSync(join(home.dir, ".docker", "config.json"), JSON.stringify({ auths: { x: { auth: TOKEN } } }));
  writeFileSync(join(home.dir, ".bashrc"), "# rc\n");
  writeFileSync(join(ws, "a.txt"), "hello\n");
  // A second name of ~/.bashrc inside the workspace (made by the user, or by an earlier approved command).
  linkSync(join(home.dir, ".bashrc"), join(ws, "rc"));
  execFileSync("git", ["init", "-q", ws]);
  const docker = join(home.dir, ".docker", "config");
  const s = await serve([
    bash(`jq -n 'import "${docker}" as $c; $c'`),
    bash(`jq -n 'include "${docker}"; .'`),
    bash(`jq -n '"${docker}" | modulemeta'`),
    bash("xxd a.txt rc"),
    bash("xxd a.txt"),
    { text: "done" },
  ]);
  const r = await runBinary({
    args: ["--sandbox", "full-access", "-o", "stream-json", "go"],
    env: { ...home.env, ...providerEnv(s.url) },
    cwd: ws,
  });
  expect(r.code).toBe(0);
  const refused = r.stderr.split("\n").filter((l) => l.startsWith("permission denied"));
  expect(refused).toHaveLength(4);
  expect(refused.slice(0, 3).every((l) => l.includes("jq filter loads a module"))).toBe(true);
  expect(refused[3]).toContain("xxd writes its second operand");
  // The harmless form still runs.
  expect(r.stdout).toContain("hello");
  expect(JSON.stringify(s.requests.map((q) => q.body)) + r.stdout).not.toContain(TOKEN);
  expect(readFileSync(join(home.dir, ".bashrc"), "utf8")).toBe("# rc\n");
});
