// A hook's `"continue": false` heard in a sub-agent stops the whole run, as Claude Code's "Claude
// stops" says, through the compiled binary against the fake model: the sub-agent's hooks run in the
// main thread, which ends the run after the task (no request follows) and cuts the sub-agents still
// running beside it. Were it the sub-agent's alone, the main model would carry on (or start
// another sub-agent for the same work) past a stop meant as a brake.

import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { providerEnv, runBinary } from "../support/binary.ts";
import type { FakeLLM, RecordedRequest } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { HAVE_BWRAP, NEEDS_BWRAP } from "../sandbox/support.ts";
import { type HookWorld, hookWorld } from "./hooks-support.ts";

const serve = fakeLLMPerTest();
const it = (name: string, fn: () => Promise<void>) => test.skipIf(!HAVE_BWRAP)(name + NEEDS_BWRAP, fn, 60_000);
const posts = (fake: FakeLLM): RecordedRequest[] => fake.requests.filter((r) => r.path === "/v1/messages");
const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
/** Which task a sub-agent's request is for: its prompt, the first user message. */
const taskPrompt = (r: RecordedRequest) => JSON.stringify(r.body.messages[0]?.content ?? "");
const bash = (command: string, id: string) => ({ toolCalls: [{ id, name: "Bash", input: { command } }] });
const task = (prompt: string, id: string) => ({
  id,
  name: "Bash",
  input: { command: `task:general --prompt '${prompt}'` },
});

/** Stops the agent at any Bash call whose command names STOPME; lets every other call through. */
function stopWorld(event: "PreToolUse" | "PostToolUse"): HookWorld {
  const stop = JSON.stringify({ continue: false, stopReason: "halt" });
  const command = `grep -q STOPME && echo '${stop}' || true`;
  return hookWorld({ [event]: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] });
}

async function run(w: HookWorld, fake: FakeLLM) {
  return runBinary({
    args: ["-y", "-o", "json", "delegate"],
    env: { ...w.env, ...providerEnv(fake.url) },
    cwd: w.ws,
    timeoutMs: 50_000,
  });
}

/** The tool results the model would get next: sent by a resumed run (`-c`) in its first request. */
async function resultsSentOnResume(w: HookWorld): Promise<[string, string][]> {
  const next = await serve([{ text: "resumed" }]);
  const again = await runBinary({ args: ["-c", "go on"], env: { ...w.env, ...providerEnv(next.url) }, cwd: w.ws });
  expect(again.code).toBe(0);
  const sent = posts(next)[0]!.body.messages.at(-1).content;
  return sent.filter((b: any) => b.type === "tool_result").map((b: any) => [b.tool_use_id, b.content]);
}

describe('"continue": false in a sub-agent', () => {
  it("PreToolUse: the sub-agent's call does not run and the main agent stops too (exit 1, no request follows)", async () => {
    const w = stopWorld("PreToolUse");
    const fake = await serve((req) => {
      if (isSub(req)) return req.body.messages.length === 1 ? bash("touch STOPME.txt", "sub_1") : { text: "sub" };
      return req.body.messages.length === 1 ? { toolCalls: [task("make a file", "task_1")] } : { text: "went on" };
    });
    const r = await run(w, fake);
    expect(r.code).toBe(1);
    expect(existsSync(join(w.ws, "STOPME.txt"))).toBe(false);
    // The main model's one request, and the sub-agent's one: nothing after the stop.
    expect(posts(fake).filter((p) => !isSub(p))).toHaveLength(1);
    expect(posts(fake).filter(isSub)).toHaveLength(1);
    expect(r.stderr).toContain("a hook stopped the agent: halt");
    expect(JSON.parse(r.stdout)).toMatchObject({
      subtype: "error_during_execution",
      terminal_reason: "hook_stopped",
      result: "Stopped by a hook: halt",
    });
    expect(await resultsSentOnResume(w)).toEqual([["task_1", "The sub-agent failed: Stopped by a hook: halt"]]);
  });

  it("PostToolUse: the call ran, the sub-agents beside it are cut at once, and the run ends", async () => {
    const w = stopWorld("PostToolUse");
    const fake = await serve((req) => {
      if (isSub(req)) {
        if (req.body.messages.length > 1) return { text: "sub done" };
        // beta would sleep past the test's time limit: only the cut ends it.
        return taskPrompt(req).includes("alpha")
          ? bash("touch STOPME.txt", "sub_a")
          : bash("sleep 120; touch late.txt", "sub_b");
      }
      if (req.body.messages.length > 1) return { text: "went on" };
      return { toolCalls: [task("beta", "task_b"), task("alpha", "task_a")] };
    });
    const r = await run(w, fake);
    expect(r.code).toBe(1);
    expect(existsSync(join(w.ws, "STOPME.txt"))).toBe(true);
    expect(existsSync(join(w.ws, "late.txt"))).toBe(false);
    expect(posts(fake).filter((p) => !isSub(p))).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ terminal_reason: "hook_stopped", result: "Stopped by a hook: halt" });
    expect(await resultsSentOnResume(w)).toEqual([
      ["task_b", "Stopped: a hook stopped the agent while this sub-agent ran."],
      ["task_a", "The sub-agent failed: Stopped by a hook: halt"],
    ]);
  });
});
