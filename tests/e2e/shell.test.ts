// The Bash tool through the compiled binary: reuse across cwd changes, timeouts, background jobs,
// and no process left behind however the binary ends.

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FakeLLM, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { jsonLines, providerEnv, runBinary, spawnBinary } from "../support/binary.ts";

const serve = fakeLLMPerTest();
const bash = (command: string, extra: Record<string, unknown> = {}): ScriptedReply => ({
  toolCalls: [{ name: "Bash", input: { command, ...extra } }],
});

/** Tool result text the model got back in request `i` (Anthropic wire format). */
function resultText(s: FakeLLM, i: number): string {
  const msgs = s.requests[i]!.body.messages;
  const last = msgs[msgs.length - 1];
  return last.content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join("")))
    .join("\n");
}

/** Processes whose command line contains `needle` (excluding the ps/grep themselves). */
async function survivors(needle: string): Promise<string[]> {
  const proc = Bun.spawn(["ps", "-eo", "pid,pgid,args"], { stdout: "pipe" });
  const out = await new Response(proc.stdout).text();
  return out.split("\n").filter((l) => l.includes(needle) && !l.includes("ps -eo"));
}

describe("Bash through the binary", () => {
  test("cd is visible, the next command with the original cwd lands right and reuses the shell", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "synapse-sh-")));
    mkdirSync(join(dir, "src"));
    const s = await serve([bash("cd src && pwd"), bash("pwd"), bash("echo $0"), { text: "done" }]);
    const r = await runBinary({ args: ["-o", "json", "-C", dir, "go"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(resultText(s, 1)).toContain(join(dir, "src"));
    expect(resultText(s, 1)).toContain(`cwd now: ${join(dir, "src")}`);
    expect(resultText(s, 2).split("\n")[0]).toBe(dir);
    const stats = JSON.parse(r.stdout).stats;
    expect(stats.shells_spawned).toBe(1);
    expect(stats.shells_reused).toBe(2);
    expect(stats.commands_run).toBe(3);
  });

  test("exit codes, a command that reads stdin, exit in the command", async () => {
    const s = await serve([bash("cat; read x; echo read-done"), bash("exit 7"), bash("echo alive"), { text: "done" }]);
    const r = await runBinary({ args: ["-o", "json", "go"], env: providerEnv(s.url), timeoutMs: 20_000 });
    expect(r.code).toBe(0);
    expect(resultText(s, 1)).toContain("read-done");
    expect(resultText(s, 2)).toContain("7");
    expect(resultText(s, 3)).toContain("alive");
  });

  test("a command past its timeout is killed with its process group; the next runs at once", async () => {
    const s = await serve([
      bash("echo started; sleep 4242.1", { timeout_ms: 300 }),
      bash("echo next"),
      { text: "done" },
    ]);
    const r = await runBinary({ args: ["-o", "json", "go"], env: providerEnv(s.url), timeoutMs: 20_000 });
    expect(r.code).toBe(0);
    expect(resultText(s, 1)).toContain("started");
    expect(resultText(s, 1).toLowerCase()).toContain("timed out after 300 ms");
    expect(resultText(s, 2)).toContain("next");
    expect(await survivors("sleep 4242.1")).toEqual([]);
  });

  test("a background job does not hold the command open and does not survive the binary", async () => {
    const s = await serve([bash("sleep 4243.2 &\necho launched"), bash("echo second"), { text: "done" }]);
    const r = await runBinary({ args: ["go"], env: providerEnv(s.url), timeoutMs: 20_000 });
    expect(r.code).toBe(0);
    expect(resultText(s, 1)).toContain("launched");
    expect(resultText(s, 2)).toContain("second");
    expect(await survivors("sleep 4243.2")).toEqual([]);
  });

  test("ANSI colours and progress bars reach the model cleaned", async () => {
    const s = await serve([
      bash("printf '\\033[31mred\\033[0m\\n'; printf '10%%\\r50%%\\r100%%\\n'"),
      { text: "done" },
    ]);
    await runBinary({ args: ["go"], env: providerEnv(s.url) });
    const text = resultText(s, 1);
    expect(text).toContain("red");
    expect(text).not.toContain("\x1b");
    expect(text).toContain("100%");
    expect(text).not.toContain("50%");
  });

  test("output cut in the middle of emoji reaches the model and stream-json well-formed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-emoji-"));
    // One long line of emoji, odd-length prefix: every UTF-16 cut point lands inside a pair.
    require("node:fs").writeFileSync(join(dir, "e.txt"), `a${"\u{1F600}".repeat(40_000)}\n`);
    const s = await serve([bash("cat e.txt"), { text: "done" }]);
    const r = await runBinary({ args: ["-o", "stream-json", "-C", dir, "go"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    const text = resultText(s, 1);
    expect(text.includes("characters omitted")).toBe(true);
    expect(text.includes("\u{1F600}")).toBe(true);
    expect(lone.test(text)).toBe(false);
    const lines = jsonLines(r.stdout);
    expect(lines.some((l) => lone.test(JSON.stringify(l)))).toBe(false);
  });

  test("stream-json carries live command output as tool_progress lines", async () => {
    const s = await serve([bash("for i in 1 2 3; do echo tick$i; done"), { text: "done" }]);
    const r = await runBinary({ args: ["-o", "stream-json", "go"], env: providerEnv(s.url) });
    const progress = jsonLines(r.stdout).filter((l) => l.type === "tool_progress");
    expect(progress.map((l) => l.text).join("")).toContain("tick3");
  });

  test.each(["SIGINT", "SIGTERM"] as const)("%s during a running command: no survivors", async (signal) => {
    const marker = signal === "SIGINT" ? "4244.3" : "4245.4";
    const s = await serve([bash(`sleep ${marker} & sleep ${marker}`), { text: "never" }]);
    const proc = spawnBinary({ args: ["go"], env: providerEnv(s.url) });
    while ((await survivors(`sleep ${marker}`)).length < 2) await Bun.sleep(20);
    proc.kill(signal);
    expect(await proc.exited).toBe(signal === "SIGINT" ? 130 : 143);
    expect(await survivors(`sleep ${marker}`)).toEqual([]);
  });
});
