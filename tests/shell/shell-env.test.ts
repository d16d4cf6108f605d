// What a command's environment holds: never the provider keys (they would go back to the model,
// into messages.jsonl, and to whoever a prompt-injected model sends them), nor does the watchdog's.

import { afterEach, beforeEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { resolveConfig } from "../../src/config/config.ts";
import { harness, type Harness } from "./support.ts";

const SECRETS = { ANTHROPIC_API_KEY: "sk-ant-LEAKCHECK-1", OPENAI_API_KEY: "sk-LEAKCHECK-2", MY_TOKEN: "LEAKCHECK-3" };

let h: Harness | undefined;
// In this process's own environment too, as in a real run: a child that simply inherited it would leak.
beforeEach(() => Object.assign(process.env, SECRETS));
afterEach(async () => {
  for (const name of Object.keys(SECRETS)) delete process.env[name];
  await h?.cleanup();
  h = undefined;
});

test("`env` in a pooled command shows no provider key, nor a name SYNAPSE_HIDE_ENV lists", async () => {
  const config = resolveConfig({
    flags: {},
    env: { ...process.env, ...SECRETS, SYNAPSE_HIDE_ENV: "MY_TOKEN", KEPT_VAR: "visible" },
    processCwd: process.cwd(),
    homeDir: "/nonexistent",
  });
  h = harness(config.shell);
  const r = await h.run('env; echo; echo "[$ANTHROPIC_API_KEY][$OPENAI_API_KEY][$MY_TOKEN]"');
  expect(r.exitCode).toBe(0);
  expect(r.output).toContain("KEPT_VAR=visible");
  expect(r.output).toContain("[][][]");
  expect(r.output).not.toContain("LEAKCHECK");
  // Another task's fresh shell, and a sub-shell, start from the same environment.
  const other = await h.run("bash -c env", { taskId: "task-2" });
  expect(other.output).toContain("KEPT_VAR=visible");
  expect(other.output).not.toContain("LEAKCHECK");
});

test("the shells' watchdogs do not hold the keys in their environment either", async () => {
  const env = { ...process.env, ...SECRETS, SYNAPSE_HIDE_ENV: "MY_TOKEN" };
  const config = resolveConfig({ flags: {}, env, processCwd: process.cwd(), homeDir: "/nonexistent" });
  h = harness(config.shell);
  const r = await h.run("echo $$");
  expect(r.exitCode).toBe(0);
  const watchdogs = readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "latin1");
        return cmdline.includes("watchdog.sh") && cmdline.endsWith(`\0${r.output.trim()}\0`);
      } catch {
        return false;
      }
    });
  expect(watchdogs.length).toBe(1);
  expect(readFileSync(`/proc/${watchdogs[0]}/environ`, "latin1")).not.toContain("LEAKCHECK");
});
