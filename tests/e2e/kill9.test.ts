// The compiled binary killed with `kill -9` mid-command: no exit handler runs, yet nothing its
// shells started may remain (the per-shell watchdog's job). A normal run must leave nothing either,
// and the watchdog must not show in any command's output.

import { describe, expect, test } from "bun:test";
import type { FakeLLM, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, spawnBinary } from "../support/binary.ts";
import { pollUntil } from "../support/wait.ts";

const serve = fakeLLMPerTest();
let server: FakeLLM | undefined;
const bash = (command: string): ScriptedReply => ({ toolCalls: [{ name: "Bash", input: { command } }] });

interface PsLine {
  pid: number;
  ppid: number;
  args: string;
}

async function ps(): Promise<PsLine[]> {
  const out = await new Response(Bun.spawn(["ps", "-eo", "pid=,ppid=,args="], { stdout: "pipe" }).stdout).text();
  return out
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
}

function resultText(s: FakeLLM, i: number): string {
  const msgs = s.requests[i]!.body.messages;
  return msgs[msgs.length - 1].content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join("")))
    .join("\n");
}

describe("kill -9 of the binary", () => {
  test("the running command, its background job and the shells are gone", async () => {
    server = await serve([bash("sleep 777.7 & sleep 777.8"), { text: "never" }]);
    const proc = spawnBinary({ args: ["go"], env: providerEnv(server.url) });
    const sleeps = (table: PsLine[]) => table.filter((p) => /^sleep 777\.[78]$/.test(p.args));
    await pollUntil("both sleeps to run", async () => sleeps(await ps()).length === 2, {
      seen: async () => sleeps(await ps()),
    });
    // The shell (bwrap running it, when sandboxed) and its watchdog are the binary's own children.
    const ours = (await ps())
      .filter((p) => p.ppid === proc.pid && /^(\S*\/)?(bash --noprofile|bwrap )/.test(p.args))
      .map((p) => p.pid);
    expect(ours.length).toBe(2);
    proc.kill("SIGKILL");
    await proc.exited;
    // The watchdogs act as soon as the binary's end of their pipe closes; how soon is not asserted.
    const left = async () => (await ps()).filter((p) => sleeps([p]).length > 0 || ours.includes(p.pid));
    await pollUntil("the sleeps, the shell and its watchdog to be gone", async () => (await left()).length === 0, {
      seen: left,
    });
  });

  test("a normal run leaves nothing, and commands see no trace of the watchdog", async () => {
    server = await serve([
      bash("echo $$; sleep 777.9 & jobs; ps -o args= --ppid $$ | grep -c '[w]atchdog'"),
      { text: "done" },
    ]);
    // Unsandboxed, so that `$$` is the shell's pid on the host (sandbox/sandboxed-shell.test.ts and
    // e2e/sandbox.test.ts check what a sandboxed shell leaves); allowed, since the policy then fails closed.
    const env = { ...providerEnv(server.url), SYNAPSE_SANDBOX: "full-access" };
    const r = await runBinary({ args: ["--allow", "Bash", "go"], env, timeoutMs: 20_000 });
    expect(r.code).toBe(0);
    const text = resultText(server, 1);
    const shell = Number(text.trim().split("\n")[0]);
    expect(shell).toBeGreaterThan(0);
    expect(text).toContain("sleep 777.9 &");
    expect(text).toMatch(/\n0\n/);
    const table = await ps();
    expect(
      table.filter((p) => p.args === "sleep 777.9" || p.pid === shell || p.args.endsWith(`watchdog.sh ${shell}`)),
    ).toEqual([]);
  });
});
