// Hooks as a new user meets them, through the compiled binary against the fake model: a failed
// tool call still reaches PostToolUse, Ctrl-C during a slow hook ends the run as interrupted (no
// warning about the hook it killed), and a matcher typo is said, not silently never matched.

import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { providerEnv, runBinary, spawnBinary } from "../support/binary.ts";
import type { FakeLLM, RecordedRequest } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { HAVE_BWRAP, NEEDS_BWRAP } from "../sandbox/support.ts";
import { type HookWorld, hookWorld, lastToolResult } from "./hooks-support.ts";

const serve = fakeLLMPerTest();
const it = (name: string, fn: () => Promise<void>) => test.skipIf(!HAVE_BWRAP)(name + NEEDS_BWRAP, fn, 60_000);
const posts = (fake: FakeLLM): RecordedRequest[] => fake.requests.filter((r) => r.path === "/v1/messages");

async function run(w: HookWorld, fake: FakeLLM, prompt: string, args: string[] = []) {
  return runBinary({ args: [...args, prompt], env: { ...w.env, ...providerEnv(fake.url) }, cwd: w.ws });
}

async function waitForFile(path: string): Promise<void> {
  // Bounded only so a failing test says so instead of hanging.
  for (let i = 0; i < 400 && !existsSync(path); i++) await Bun.sleep(25);
  if (!existsSync(path)) throw new Error(`${path} never appeared`);
}

/** The pids whose command line holds `marker` (a process this test started). */
function pidsRunning(marker: string): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("hooks: edge cases", () => {
  it("PostToolUse hears a call that failed (an Edit of a missing file) and its text reaches the model", async () => {
    const record = `cat > "$CLAUDE_PROJECT_DIR/post.json"; echo '{"hookSpecificOutput":{"additionalContext":"seen"}}'`;
    const w = hookWorld({ PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: record }] }] });
    const edit = { id: "e1", name: "Edit", input: { path: "missing.txt", old_string: "a", new_string: "b" } };
    const fake = await serve([{ toolCalls: [edit] }, { text: "ok" }]);
    expect((await run(w, fake, "go")).code).toBe(0);
    const event = JSON.parse(readFileSync(join(w.ws, "post.json"), "utf8"));
    expect(event).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "Edit", tool_use_id: "e1" });
    expect(event.tool_response.is_error).toBe(true);
    expect(event.tool_response.content).toContain("File not found");
    const result = lastToolResult(posts(fake)[1]!);
    expect(result.is_error).toBe(true);
    expect(result.text).toEndWith("PostToolUse hook: seen");
  });

  it("Ctrl-C while a Stop hook runs: the run ends as interrupted (exit 130), no warning about the hook", async () => {
    const slow = 'touch "$CLAUDE_PROJECT_DIR/started"; sleep 30';
    const w = hookWorld({ Stop: [{ hooks: [{ type: "command", command: slow }] }] });
    const fake = await serve([{ text: "finished" }]);
    const proc = spawnBinary({ args: ["-o", "json", "go"], env: { ...w.env, ...providerEnv(fake.url) }, cwd: w.ws });
    await waitForFile(join(w.ws, "started"));
    proc.kill("SIGINT");
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).toBe(130);
    const result = JSON.parse(stdout);
    expect(result.subtype).toBe("interrupted");
    expect(result.is_error).toBe(true);
    expect(stderr).not.toContain("was killed");
  });

  it("Ctrl-C while a PreToolUse guard runs: the call it guards never runs", async () => {
    const guard = 'touch "$CLAUDE_PROJECT_DIR/started"; sleep 30; exit 2';
    const w = hookWorld({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }] });
    const call = { id: "c1", name: "Bash", input: { command: "touch ran.txt" } };
    const fake = await serve([{ toolCalls: [call] }, { text: "ok" }]);
    const proc = spawnBinary({ args: ["-y", "go"], env: { ...w.env, ...providerEnv(fake.url) }, cwd: w.ws });
    await waitForFile(join(w.ws, "started"));
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    expect(existsSync(join(w.ws, "ran.txt"))).toBe(false);
  });

  test("unconfined, a hook leaving a process that holds its stdout (setsid) still ends, its answer heard", async () => {
    const marker = `45.${process.pid}5`;
    // The hook answers only once the process has left its group (else the group kill could win the race).
    const escaped = '"$CLAUDE_PROJECT_DIR/escaped"';
    const held =
      `setsid sh -c 'touch ${escaped}; exec sleep ${marker}' & ` +
      `until [ -e ${escaped} ]; do sleep 0.01; done; echo '{"decision":"block","reason":"held"}'`;
    const w = hookWorld({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: held }] }] });
    const fake = await serve([{ toolCalls: [{ id: "c1", name: "Bash", input: { command: "true" } }] }, { text: "ok" }]);
    const env = { ...w.env, ...providerEnv(fake.url), SYNAPSE_BWRAP: "/nonexistent/bwrap" };
    try {
      // Without the fix the run waits for the sleep (45 s), past runBinary's own 30 s kill.
      const r = await runBinary({ args: ["go"], env, cwd: w.ws });
      expect(r.code).toBe(0);
      expect(lastToolResult(posts(fake)[1]!).text).toBe("Blocked by a PreToolUse hook: held");
    } finally {
      for (const pid of pidsRunning(marker)) process.kill(pid, "SIGKILL");
    }
  }, 60_000);

  it("a matcher that is not a regular expression is a configuration error naming it (exit 2)", async () => {
    const w = hookWorld({ PreToolUse: [{ matcher: "*Bash", hooks: [{ type: "command", command: "exit 2" }] }] });
    const fake = await serve([{ text: "ok" }]);
    const r = await run(w, fake, "go");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"PreToolUse[0].matcher"');
    expect(r.stderr).toContain("*Bash");
    expect(posts(fake)).toHaveLength(0);
  });

  it("a tool matcher that selects none of the tools (a case typo) gets one warning naming them", async () => {
    const w = hookWorld({
      PreToolUse: [
        { matcher: "bash", hooks: [{ type: "command", command: "exit 2" }] },
        { matcher: "Edit|MultiEdit|Write", hooks: [{ type: "command", command: "true" }] },
        { matcher: "mcp__github__.*", hooks: [{ type: "command", command: "true" }] },
      ],
    });
    const fake = await serve([
      { toolCalls: [{ id: "c1", name: "Bash", input: { command: "echo ran" } }] },
      { text: "ok" },
    ]);
    const r = await run(w, fake, "go");
    expect(r.code).toBe(0);
    const warnings = r.stderr.split("\n").filter((l) => l.includes("selects none of"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('matcher "bash"');
    expect(warnings[0]).toContain("Bash, Read, Write, Edit, Glob, Grep");
  });
});
