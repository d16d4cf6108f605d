// Programs synapse runs for itself (mkfifo, ps, bash, rg, setsid, git, bwrap) are found on a trusted
// PATH (issue 16, §4): a model that planted `./bin/mkfifo` in the workspace, or a `ps` in a folder
// put first on PATH, must not get synapse to run it with synapse's own environment (key included).

import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
const PLANTED = ["mkfifo", "ps", "rg", "bash", "sh", "setsid", "git", "bwrap", "true", "env", "kill", "setpriv"];

/** A folder of impostors: each records its name and environment in `log`, then fails. */
function plant(dir: string, log: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of PLANTED) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\necho "${name} $ANTHROPIC_API_KEY" >> ${JSON.stringify(log)}\nexit 1\n`);
    chmodSync(file, 0o755);
  }
}

test("impostors first on PATH, in the workspace or elsewhere, are never run by synapse", async () => {
  const home = tempHome();
  const ws = join(home.dir, "project");
  const elsewhere = join(home.dir, "tools", "bin");
  const log = join(home.dir, "impostors.log");
  plant(join(ws, "bin"), log);
  plant(elsewhere, log);
  writeFileSync(join(ws, "notes.txt"), "needle\n");
  const s = await serve([
    { toolCalls: [{ name: "Bash", input: { command: "echo pooled-shell-ran" } }] },
    { toolCalls: [{ name: "Grep", input: { pattern: "needle" } }] },
    { toolCalls: [{ name: "Glob", input: { pattern: "*.txt" } }] },
    { text: "done" },
  ]);
  const env = {
    ...home.env,
    ...providerEnv(s.url),
    ANTHROPIC_API_KEY: "sk-ant-impostor-canary",
    // Relative and workspace entries first, then an absolute folder outside it, then the system's.
    PATH: `bin:./bin:${join(ws, "bin")}:${elsewhere}:/usr/local/bin:/usr/bin:/bin`,
  };
  const r = await runBinary({ args: ["-C", ws, "-o", "json", "go"], cwd: ws, env });
  expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("");
  expect(r.code).toBe(0);
  const results = JSON.stringify(s.requests[3]!.body.messages);
  expect(results).toContain("pooled-shell-ran");
  expect(results).toContain("notes.txt");

  const doctor = await runBinary({ args: ["-C", ws, "doctor"], cwd: ws, env });
  expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("");
  expect(doctor.stdout).toMatch(/bash.*\/(usr\/)?bin\/bash/);
}, 60_000);
