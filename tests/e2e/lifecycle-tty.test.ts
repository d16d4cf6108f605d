// How the interactive session ends on a signal (cli/process-lifecycle.ts), from the compiled binary
// on a real terminal (tmux): SIGTERM → 143 after saving, two SIGINTs mid-stream → 130 with one save
// and the partial answer kept, and the TERM=dumb line session the same. No lock is left behind.

import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

function sessionDirs(synapseHome: string): string[] {
  const root = join(synapseHome, "sessions");
  return existsSync(root) ? readdirSync(root).map((id) => join(root, id)) : [];
}

/** Whether a SIGINT sent to the process is still pending (two pending ones would merge into one). */
function sigintPending(pid: number): boolean {
  const bit = 1n << BigInt(constants.signals.SIGINT - 1);
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) =>
      [
        ...readFileSync(`/proc/${pid}/task/${tid}/status`, "latin1").matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm),
      ].some((m) => (BigInt(`0x${m[1]}`) & bit) !== 0n),
    );
  } catch {
    return false; // gone: nothing pending
  }
}

const savedLines = (s: string) => s.match(/session \S+ saved · resume it with: synapse -r \S+/g) ?? [];

describe.skipIf(!hasTmux)("signals in the interactive session", () => {
  test("SIGTERM after an answer: exit 143, the session saved, no lock", async () => {
    const fake = await startFakeLLM([{ text: "first answer" }]);
    const home = tempHome();
    const t = await server.open(fake.url, { home });
    try {
      t.type("hello");
      t.keys("Enter");
      await t.until((s) => s.includes("first answer"), "the answer");
      process.kill(t.pid, "SIGTERM");
      const end = await t.until((s) => s.includes("EXIT="), "the exit");
      expect(end).toContain("EXIT=143");
      expect(savedLines(end)).toHaveLength(1);
      const dirs = sessionDirs(home.env.SYNAPSE_HOME!);
      expect(dirs).toHaveLength(1);
      for (const dir of dirs) expect(existsSync(join(dir, "lock"))).toBe(false);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);

  test("two SIGINTs mid-stream: exit 130 after one save, the partial answer marked interrupted", async () => {
    const fake = await startFakeLLM([{ text: "slow ".repeat(2000), chunkDelayMs: 40 }]);
    const home = tempHome();
    const t = await server.open(fake.url, { home });
    try {
      t.type("go slowly");
      t.keys("Enter");
      await t.until((s) => s.includes("slow slow"), "the stream");
      process.kill(t.pid, "SIGINT");
      while (sigintPending(t.pid)) await Bun.sleep(5);
      process.kill(t.pid, "SIGINT");
      const end = await t.until((s) => s.includes("EXIT="), "the exit");
      expect(end).toContain("EXIT=130");
      expect(end).toContain("interrupted");
      expect(end).not.toContain("esc to interrupt");
      expect(savedLines(end)).toHaveLength(1);
      for (const dir of sessionDirs(home.env.SYNAPSE_HOME!)) expect(existsSync(join(dir, "lock"))).toBe(false);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);

  test("TERM=dumb: SIGTERM ends the line session with 143 after saving", async () => {
    const fake = await startFakeLLM([{ text: "plain answer" }]);
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url), TERM: "dumb" };
    const command = `sh -c 'echo PID=$$; exec ${BINARY}'`;
    const t = server.session({ env, cwd: home.dir, command }, 20_000);
    try {
      const first = await t.until((s) => s.includes("›"), "the prompt");
      const pid = Number(/PID=(\d+)/.exec(first)?.[1] ?? 0);
      t.type("hello");
      t.keys("Enter");
      await t.until((s) => s.includes("plain answer"), "the answer");
      process.kill(pid, "SIGTERM");
      const end = await t.until((s) => s.includes("EXIT="), "the exit");
      expect(end).toContain("EXIT=143");
      expect(savedLines(end)).toHaveLength(1);
      for (const dir of sessionDirs(home.env.SYNAPSE_HOME!)) expect(existsSync(join(dir, "lock"))).toBe(false);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);
});
