// The first request does not wait for the sandbox probe: only a tool call needs its answer. A fake
// `bwrap` (SYNAPSE_BWRAP) blocks on a fifo until the test writes to it, so the probe hangs for as
// long as the test wants; the request must reach the fake LLM all the same. Nor does the probe's
// spawn run on the main thread's way to that request: it starts once the request's fetch has.

import { afterEach, describe, expect, test } from "bun:test";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providerEnv, spawnBinary } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { pollUntil } from "../support/wait.ts";
import { HAVE_BWRAP, NEEDS_BWRAP, PROBED, testBase } from "../sandbox/support.ts";

const serve = fakeLLMPerTest();
const dirs: string[] = [];

/**
 * A bwrap whose first run (the probe's) waits until `release()` wrote to its fifo, then fails; or,
 * given the real bwrap, runs it: the probe then answers that commands are confined.
 */
function blockingBwrap(real?: string, base = tmpdir()) {
  const dir = mkdtempSync(join(base, "synapse-probe-"));
  dirs.push(dir);
  const fifo = join(dir, "gate");
  expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
  const bwrap = join(dir, "bwrap");
  const then = real ? `exec '${real}' "$@"` : "exit 1";
  const script = `#!/bin/sh\nif [ ! -e '${dir}/probed' ]; then read line < '${fifo}'; : > '${dir}/probed'; fi\n${then}\n`;
  writeFileSync(bwrap, script, { mode: 0o755 });
  return {
    bwrap,
    /** Lets the probe answer; false when nothing was waiting on the fifo. */
    release(): boolean {
      try {
        // Non-blocking: with no reader left this fails instead of hanging the test.
        const fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
        writeSync(fd, "go\n");
        closeSync(fd);
        return true;
      } catch {
        return false;
      }
    },
  };
}

const gates: Array<ReturnType<typeof blockingBwrap>> = [];
afterEach(() => {
  for (const gate of gates.splice(0)) gate.release();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the sandbox probe runs beside the first request", () => {
  test("the probe starts only once the first request's fetch has started", async () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-probe-"));
    dirs.push(dir);
    const bwrap = join(dir, "bwrap");
    // Records when it was started (epoch ms, the clock of the start-up trace), then fails.
    writeFileSync(bwrap, `#!/bin/sh\necho $(($(date +%s%N) / 1000)) >> '${dir}/started'\nexit 1\n`, { mode: 0o755 });
    const s = await serve([{ toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] }, { text: "done" }]);
    const env = { ...providerEnv(s.url), SYNAPSE_BWRAP: bwrap, SYNAPSE_STARTUP_TRACE: "1" };
    const proc = spawnBinary({ args: ["go"], env });
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("done");
    const fetched = Number(/^synapse-startup fetch ([\d.]+) /m.exec(stderr)?.[1]);
    const started = readFileSync(join(dir, "started"), "utf8")
      .trim()
      .split("\n")
      .map((us) => Number(us) / 1000);
    // One probe a process; before this change it started as the session opened, before the request.
    expect(started).toHaveLength(1);
    expect(started[0]!).toBeGreaterThan(fetched);
  }, 30_000);

  test("a run without tool calls ends while the probe still hangs", async () => {
    const gate = blockingBwrap();
    gates.push(gate);
    const s = await serve([{ text: "done" }]);
    const proc = spawnBinary({ args: ["go"], env: { ...providerEnv(s.url), SYNAPSE_BWRAP: gate.bwrap } });
    await pollUntil("the first request", () => s.requests.length > 0, { seen: () => s.requests.length });
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("done");
    expect(s.requests).toHaveLength(1);
    // The probe never answered: its bwrap is (or, started after the request went out, soon will be)
    // waiting on the fifo.
    await pollUntil("the probe waiting on its gate", () => gate.release());
  }, 30_000);

  test("a tool call waits for the probe's answer, then runs under it", async () => {
    const gate = blockingBwrap();
    gates.push(gate);
    const s = await serve([{ toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] }, { text: "done" }]);
    const proc = spawnBinary({ args: ["go"], env: { ...providerEnv(s.url), SYNAPSE_BWRAP: gate.bwrap } });
    await pollUntil("the first request", () => s.requests.length > 0, { seen: () => s.requests.length });
    // The probe starts once the request has gone out: released as soon as it waits.
    await pollUntil("the probe waiting on its gate", () => gate.release());
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("done");
    expect(s.requests).toHaveLength(2);
    expect(JSON.stringify(s.requests[1]!.body.messages.at(-1))).toContain("hi");
    // Unconfined (the fake bwrap failed): said once, and the policy judged the call failing closed.
    expect(stderr).toContain("no OS sandbox for commands (bwrap cannot start a sandbox here: exit 1)");
  }, 30_000);

  test.skipIf(!HAVE_BWRAP)(
    `a tool call is judged by the probe's answer: confined, a command no rule proves harmless runs unasked${NEEDS_BWRAP}`,
    async () => {
      const real = PROBED.kind === "bwrap" ? PROBED.bwrap : "";
      const gate = blockingBwrap(real, testBase());
      gates.push(gate);
      const ws = mkdtempSync(join(testBase(), "synapse-probe-ws-"));
      dirs.push(ws);
      const s = await serve([
        { toolCalls: [{ name: "Bash", input: { command: `perl -e 'print "confined"'` } }] },
        { text: "done" },
      ]);
      const proc = spawnBinary({ args: ["go"], env: { ...providerEnv(s.url), SYNAPSE_BWRAP: gate.bwrap }, cwd: ws });
      await pollUntil("the first request", () => s.requests.length > 0, { seen: () => s.requests.length });
      await pollUntil("the probe waiting on its gate", () => gate.release());
      const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      expect(code).toBe(0);
      expect(stdout.trim()).toBe("done");
      // Judged before the answer, it would have been refused: unconfined, the policy fails closed.
      const result = s.requests[1]!.body.messages.at(-1).content[0];
      expect(result.is_error).toBeUndefined();
      expect(result.content).toStartWith("confined");
    },
    30_000,
  );
});
