// The main thread's side of sub-agents, run from source with the real worker file, a real shell
// pool and the fake API: an interrupt leaves no worker thread and no shell command behind.
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSubAgents } from "../../src/agent/sub-agents.ts";
import { resolveConfig } from "../../src/config/config.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import { createShellPool } from "../../src/shell/shell-pool.ts";
import type { RecordedRequest, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { pollUntil } from "../support/wait.ts";

const serve = fakeLLMPerTest();
/** Worker threads of this process (Bun names them "Worker"; its own helper threads come and go). */
const workerThreads = () =>
  readdirSync("/proc/self/task").filter((t) => readFileSync(`/proc/self/task/${t}/comm`, "utf8").trim() === "Worker")
    .length;

async function commandsRunning(marker: string): Promise<number> {
  const proc = Bun.spawn(["ps", "-eo", "args"], { stdout: "pipe" });
  return (await new Response(proc.stdout).text()).split("\n").filter((l) => l.startsWith(`sleep ${marker}`)).length;
}

test("an interrupt mid-batch ends every sub-agent, its commands and its threads", async () => {
  const marker = "4244.3";
  const fake = await serve((req: RecordedRequest): ScriptedReply => {
    const prompt = req.body.messages[0].content[0].text;
    if (prompt.startsWith("shell") && req.body.messages.length === 1)
      return { toolCalls: [{ name: "Bash", input: { command: `sleep ${marker}` } }] };
    return { hang: true };
  });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "synapse-subagents-")));
  const config = resolveConfig({
    flags: { cwd: dir },
    env: {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: fake.url,
      SYNAPSE_HOME: join(dir, "home"),
      SYNAPSE_MAX_PARALLEL_TASKS: "3",
    },
    processCwd: dir,
    homeDir: dir,
  });
  const shell = createShellPool(config.shell);
  const before = workerThreads();
  const tasks = createSubAgents({
    config,
    shell,
    sessionDir: join(dir, "session"),
    promptEnv: { cwd: dir, platform: "linux", date: new Date(0), instructions: [] },
  });
  const controller = new AbortController();
  const events: AgentEvent[] = [];
  const specs = ["shell-1", "shell-2", "hang-1", "queued-1"].map((prompt, i) =>
    tasks.run(
      { id: `toolu_${i}`, spec: { kind: prompt.startsWith("shell") ? "general" : "explore", prompt } },
      controller.signal,
      (e) => events.push(e),
    ),
  );
  await fake.waitForRequests(3);
  await pollUntil("both sub-agents' commands to run", async () => (await commandsRunning(marker)) >= 2, {
    seen: () => commandsRunning(marker),
  });
  expect(workerThreads()).toBe(before + 3);
  controller.abort();
  const outcomes = await Promise.all(specs);
  expect(outcomes.map((o) => o.block.content)).toEqual(Array(4).fill("Interrupted by the user."));
  expect(outcomes.every((o) => o.block.is_error)).toBe(true);
  expect(await commandsRunning(marker)).toBe(0);
  // The queued task never started; no thread is left once the pool was torn down.
  expect(fake.requests.some((r) => r.body.messages[0].content[0].text === "queued-1")).toBe(false);
  await pollUntil("the worker threads to end", () => workerThreads() === before, { seen: workerThreads });
  expect(tasks.stats().tasksRun).toBe(4);
  await shell.close();
}, 30_000);

test("a sub-agent that cannot start gives an is_error result, and the next task runs in the same pool", async () => {
  const fake = await serve(() => ({ text: "second task answered" }));
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "synapse-subagents-")));
  const config = resolveConfig({
    flags: { cwd: dir },
    env: {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: fake.url,
      SYNAPSE_HOME: join(dir, "home"),
      SYNAPSE_MAX_PARALLEL_TASKS: "1",
    },
    processCwd: dir,
    homeDir: dir,
  });
  const shell = createShellPool(config.shell);
  // A file where the transcripts' folder should be: the first task cannot open its store.
  const sessionDir = join(dir, "session");
  mkdirSync(sessionDir);
  writeFileSync(join(sessionDir, "tasks"), "not a folder");
  const tasks = createSubAgents({
    config,
    shell,
    sessionDir,
    promptEnv: { cwd: dir, platform: "linux", date: new Date(0), instructions: [] },
  });
  const signal = new AbortController().signal;
  const first = await tasks.run({ id: "toolu_a", spec: { kind: "explore", prompt: "a" } }, signal, () => {});
  expect(first.block.is_error).toBe(true);
  expect(String(first.block.content)).toStartWith("The sub-agent crashed:");
  expect(fake.requests).toHaveLength(0);
  rmSync(join(sessionDir, "tasks"));
  const second = await tasks.run({ id: "toolu_b", spec: { kind: "explore", prompt: "b" } }, signal, () => {});
  expect(second.block).toEqual({ type: "tool_result", tool_use_id: "toolu_b", content: "second task answered" });
  await tasks.close();
  await shell.close();
}, 30_000);
