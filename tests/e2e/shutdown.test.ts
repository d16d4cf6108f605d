// The exit path does not depend on what keeps the event loop alive: a run that must exit 1 (over
// --max-turns after a Bash call) exits 1 every time and leaves no session lock behind. Before the
// fix, a few percent of such runs ended with status 0 while the shutdown awaited unref'd watchdogs.

import { expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { BINARY, providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let server: FakeLLM | undefined;

const RUNS = 40;
const AT_ONCE = 4;

test(`${RUNS} runs over --max-turns after one Bash call: all exit 1, no lock left`, async () => {
  server = await serve(() => ({ toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] }));
  const url = server.url;
  const one = async () => {
    const home = tempHome();
    const r = await runBinary({
      args: ["--max-turns", "1", "-q", "go"],
      env: { ...home.env, ...providerEnv(url) },
      cwd: home.dir,
    });
    const sessions = join(home.env.SYNAPSE_HOME!, "sessions");
    const locks = existsSync(sessions)
      ? readdirSync(sessions).filter((id) => existsSync(join(sessions, id, "lock")))
      : [];
    return { code: r.code, stderr: r.stderr, locks: locks.length };
  };
  const results: Awaited<ReturnType<typeof one>>[] = [];
  for (let i = 0; i < RUNS; i += AT_ONCE) results.push(...(await Promise.all(Array.from({ length: AT_ONCE }, one))));
  const bad = results.filter((r) => r.code !== 1 || r.locks !== 0);
  expect(bad).toEqual([]);
  expect(results.every((r) => r.stderr.includes("maximum number of turns"))).toBe(true);
}, 120_000);

test(`${RUNS / 2} runs whose answer meets a full disk (stdout > /dev/full) after a Bash call: all exit 1, no lock left`, async () => {
  server = await serve((req) =>
    req.body.messages.length === 1
      ? { toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] }
      : { text: "an answer nobody can store" },
  );
  const url = server.url;
  const one = async () => {
    const home = tempHome();
    const proc = Bun.spawn(["bash", "-c", `"${BINARY}" -q go > /dev/full`], {
      env: { PATH: process.env.PATH!, ...home.env, ...providerEnv(url) },
      cwd: home.dir,
      stdin: "ignore",
      stderr: "pipe",
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    const sessions = join(home.env.SYNAPSE_HOME!, "sessions");
    const locks = existsSync(sessions)
      ? readdirSync(sessions).filter((id) => existsSync(join(sessions, id, "lock")))
      : [];
    return { code, stderr, locks: locks.length };
  };
  const results: Awaited<ReturnType<typeof one>>[] = [];
  for (let i = 0; i < RUNS / 2; i += AT_ONCE)
    results.push(...(await Promise.all(Array.from({ length: AT_ONCE }, one))));
  expect(results.filter((r) => r.code !== 1 || r.locks !== 0)).toEqual([]);
  expect(results.every((r) => r.stderr.includes("cannot write the output: no space left on device"))).toBe(true);
}, 120_000);
