// The compiled binary killed with `kill -9` mid-command: no exit handler runs, yet within about
// two seconds nothing its shells started may remain (the per-shell watchdog's job). A normal run
// must leave nothing either, and the watchdog must not show in any command's output.

import { describe, expect, test } from "bun:test";
import { type FakeLLM, type ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, spawnBinary } from "../support/binary.ts";

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

/** Waits until `check` holds, up to `ms`. */
async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await Bun.sleep(50);
  }
  return true;
}

function resultText(s: FakeLLM, i: number): string {
  const msgs = s.requests[i]!.body.messages;
  return msgs[msgs.length - 1].content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join("")))
    .join("\n");
}

describe("kill -9 of the binary", () => {
  test("the running command, its background job and the shells are gone within ~2 s", async () => {
    server = await serve([bash("sleep 777.7 & sleep 777.8"), { text: "never" }]);
    const proc = spawnBinary({ args: ["go"], env: providerEnv(server.url) });
    const sleeps = (table: PsLine[]) => table.filter((p) => /^sleep 777\.[78]$/.test(p.args));
    expect(await until(async () => sleeps(await ps()).length === 2, 10_000)).toBe(true);
    // The shell and its watchdog are the binary's own `bash --noprofile` children.
    const ours = (await ps()).filter((p) => p.ppid === proc.pid && p.args.startsWith("bash --noprofile")).map((p) => p.pid);
    expect(ours.length).toBe(2);
    proc.kill("SIGKILL");
    await proc.exited;
    const gone = await until(async () => {
      const table = await ps();
      return sleeps(table).length === 0 && !table.some((p) => ours.includes(p.pid));
    }, 5_000);
    expect(gone).toBe(true);
  });

  test("a normal run leaves nothing, and commands see no trace of the watchdog", async () => {
    server = await serve([bash("echo $$; sleep 777.9 & jobs; ps -o args= --ppid $$ | grep -c '[w]atchdog'"), { text: "done" }]);
    const r = await runBinary({ args: ["go"], env: providerEnv(server.url), timeoutMs: 20_000 });
    expect(r.code).toBe(0);
    const text = resultText(server, 1);
    const shell = Number(text.trim().split("\n")[0]);
    expect(shell).toBeGreaterThan(0);
    expect(text).toContain("sleep 777.9 &");
    expect(text).toMatch(/\n0\n/);
    const table = await ps();
    expect(table.filter((p) => p.args === "sleep 777.9" || p.pid === shell || p.args.endsWith(`watchdog.sh ${shell}`))).toEqual([]);
  });
});
