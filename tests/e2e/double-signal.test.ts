// Two SIGINTs in quick succession (GNU timeout signals the child and then its whole group; an
// impatient Ctrl-C in a pipeline) through the compiled binary: exit 130 with the one JSON result,
// the interrupted tool result saved, no lock left, and the session resumes. A third signal forces
// the exit and still leaves no lock. Before the fix the second signal exited at once: no result,
// the lock left behind.

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, spawnBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();

/** Waits for a condition another process brings about; the deadline only bounds a failing test. */
async function until(what: string, ok: () => boolean, deadlineMs = 30_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Whether SIGINT is still pending for the process or any of its threads (not yet delivered). */
function sigintPending(pid: number): boolean {
  const bit = 1n << BigInt(constants.signals.SIGINT - 1);
  const masks: string[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, "latin1");
      masks.push(...[...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].map((m) => m[1]!));
    }
  } catch {
    return false; // the process (or a thread) is gone: nothing is pending any more
  }
  return masks.some((mask) => (BigInt(`0x${mask}`) & bit) !== 0n);
}

/**
 * Sends SIGINT `times` times, each once the previous one has been delivered: signals sent while
 * one is still pending merge into one, which would test nothing.
 */
async function interrupt(proc: { pid: number; kill(signal: "SIGINT"): void }, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await until("the previous SIGINT to be delivered", () => !sigintPending(proc.pid));
    proc.kill("SIGINT");
  }
}

function sessionDirs(home: string): string[] {
  const root = join(home, "sessions");
  return existsSync(root) ? readdirSync(root).map((id) => join(root, id)) : [];
}

function toolResultTexts(body: any): string[] {
  const out: string[] = [];
  for (const m of body.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === "tool_result")
        out.push(typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join(""));
    }
  }
  return out;
}

describe("two SIGINTs at once", () => {
  test("during a long command: exit 130, one interrupted JSON result, no lock, the session resumes", async () => {
    const home = tempHome();
    const marker = join(home.dir, "command-started");
    const s = await serve([
      { toolCalls: [{ name: "Bash", input: { command: `touch '${marker}'; sleep 60` } }] },
      { text: "resumed fine" },
    ]);
    const env = { ...home.env, ...providerEnv(s.url) };
    const proc = spawnBinary({ args: ["-o", "json", "go"], env, cwd: home.dir });
    await until("the command to start", () => existsSync(marker));
    await interrupt(proc, 2);
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(130);
    const lines = out.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: "result", subtype: "interrupted" });
    const dirs = sessionDirs(home.env.SYNAPSE_HOME!);
    expect(dirs).toHaveLength(1);
    expect(existsSync(join(dirs[0]!, "lock"))).toBe(false);

    const again = spawnBinary({ args: ["-o", "json", "-c", "go on"], env, cwd: home.dir });
    const [out2, code2] = await Promise.all([new Response(again.stdout).text(), again.exited]);
    expect(code2).toBe(0);
    expect(JSON.parse(out2)).toMatchObject({ subtype: "success", result: "resumed fine" });
    // The interrupted call's result was saved and is sent with the resumed conversation.
    expect(toolResultTexts(s.requests[1]!.body).join("\n")).toContain("Interrupted");
  }, 60_000);

  test("during a slow model response: exit 130, one interrupted JSON result, no lock", async () => {
    const home = tempHome();
    const s = await serve([{ hang: true }]);
    const proc = spawnBinary({
      args: ["-o", "json", "go"],
      env: { ...home.env, ...providerEnv(s.url) },
      cwd: home.dir,
    });
    await until("the request to reach the server", () => s.requests.length === 1);
    await interrupt(proc, 2);
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(130);
    expect(out.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(out)).toMatchObject({ type: "result", subtype: "interrupted" });
    for (const dir of sessionDirs(home.env.SYNAPSE_HOME!)) expect(existsSync(join(dir, "lock"))).toBe(false);
  }, 60_000);

  test("a third signal forces the exit and still leaves no lock", async () => {
    const home = tempHome();
    const marker = join(home.dir, "command-started");
    // The command ignores SIGINT and SIGTERM, so the shutdown could take a while: the third signal
    // must not wait for it.
    const s = await serve([
      { toolCalls: [{ name: "Bash", input: { command: `trap '' INT TERM; touch '${marker}'; sleep 60` } }] },
    ]);
    const proc = spawnBinary({
      args: ["-o", "json", "go"],
      env: { ...home.env, ...providerEnv(s.url) },
      cwd: home.dir,
    });
    await until("the command to start", () => existsSync(marker));
    await interrupt(proc, 3);
    expect(await proc.exited).toBe(130);
    const dirs = sessionDirs(home.env.SYNAPSE_HOME!);
    expect(dirs).toHaveLength(1);
    expect(existsSync(join(dirs[0]!, "lock"))).toBe(false);
  }, 60_000);
});
