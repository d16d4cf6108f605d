// SYNAPSE_STARTUP_TRACE=1 (src/runtime/startup-trace.ts): the compiled binary reports where its start
// went, phase by phase up to the first request's fetch, for bench/startup.ts; without it, nothing.
import { expect, test } from "bun:test";
import { providerEnv, spawnBinary } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
const PHASES = [
  "main",
  "args",
  "config",
  "secured",
  "code-loaded",
  "prompt-read",
  "session-open",
  "prompt-saved",
  "request-built",
  "fetch",
];

async function run(env: Record<string, string>) {
  const s = await serve([{ text: "done" }]);
  const proc = spawnBinary({ args: ["go"], env: { ...providerEnv(s.url), ...env } });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect(code).toBe(0);
  expect(stdout.trim()).toBe("done");
  return stderr;
}

test("each phase of a one-turn run's start, in order, ending at the first request's fetch", async () => {
  const stderr = await run({ SYNAPSE_STARTUP_TRACE: "1" });
  const rows = [...stderr.matchAll(/^synapse-startup (\S+) ([\d.]+) ([\d.]+)$/gm)];
  expect(rows.map((m) => m[1])).toEqual(PHASES);
  const walls = rows.map((m) => Number(m[2]));
  const cpus = rows.map((m) => Number(m[3]));
  for (let i = 1; i < rows.length; i++) {
    expect(walls[i]!).toBeGreaterThanOrEqual(walls[i - 1]!);
    expect(cpus[i]!).toBeGreaterThanOrEqual(cpus[i - 1]!);
  }
  // Epoch milliseconds: within the last minute.
  expect(Math.abs(Date.now() - walls[0]!)).toBeLessThan(60_000);
}, 30_000);

test("off by default: nothing of it on stderr", async () => {
  expect(await run({})).not.toContain("synapse-startup");
}, 30_000);
