// Sub-agents through the compiled binary, copied alone into a temp folder (no node_modules beside
// it), against the strict fake API: the sliding pool seen from the server, results in call order,
// failures, timeouts, read-only explore, no nesting, interrupts.

import { beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FakeLLM, RecordedRequest, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { BINARY, jsonLines, providerEnv, tempHome } from "../support/binary.ts";
import { pollUntil } from "../support/wait.ts";

const serve = fakeLLMPerTest();
let binary = "";
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "synapse-alone-"));
  binary = join(dir, "synapse");
  copyFileSync(BINARY, binary);
  Bun.spawnSync(["chmod", "755", binary]);
});

const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
function promptOf(r: RecordedRequest): string {
  const c = r.body.messages[0].content;
  return typeof c === "string" ? c : c.map((b: any) => b.text ?? "").join("");
}
/** Tool results in a request's last message, in order. */
function results(r: RecordedRequest): Array<{ id: string; text: string; error: boolean }> {
  const last = r.body.messages[r.body.messages.length - 1];
  return last.content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => ({
      id: b.tool_use_id,
      text: typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join(""),
      error: b.is_error === true,
    }));
}
const task = (id: string, command: string) => ({ id, name: "Bash", input: { command } });

/** Main-agent replies in order; sub-agent requests answered by `sub(prompt, turn)` (turn 0 first). */
function script(main: ScriptedReply[], sub: (prompt: string, turn: number, req: RecordedRequest) => ScriptedReply) {
  let m = 0;
  return (req: RecordedRequest): ScriptedReply => {
    if (isSub(req)) return sub(promptOf(req), (req.body.messages.length - 1) / 2, req);
    return main[m++] ?? { text: "script over" };
  };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  home: string;
  proc: ReturnType<typeof Bun.spawn>;
}

function start(args: string[], fake: FakeLLM, env: Record<string, string> = {}, cwd?: string) {
  const home = tempHome();
  const proc = Bun.spawn([binary, ...args], {
    cwd: cwd ?? home.dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env, ...providerEnv(fake.url), ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const done = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]).then(
    ([stdout, stderr, code]): Run => ({ code, stdout, stderr, home: home.dir, proc }),
  );
  return { proc, home: home.dir, done };
}
const run = (args: string[], fake: FakeLLM, env?: Record<string, string>, cwd?: string) =>
  start(args, fake, env, cwd).done;

async function survivors(needle: string): Promise<string[]> {
  const proc = Bun.spawn(["ps", "-eo", "pid,pgid,args"], { stdout: "pipe" });
  const out = await new Response(proc.stdout).text();
  return out.split("\n").filter((l) => l.includes(needle) && !l.includes("ps -eo"));
}

describe("sub-agents from the binary alone", () => {
  test("seven tasks: at most five in flight, a queued task starts as soon as a slot frees, results in call order", async () => {
    const calls = Array.from({ length: 7 }, (_, i) =>
      task(`toolu_t${i + 1}`, `task:explore -p t${i + 1} -d "label ${i + 1}"`),
    );
    // Gates, not delays: t2-t5 are answered once five tasks are in flight, t1 only once t6 and t7
    // have arrived, which in waves of five they never would (the gate then opens at its timeout,
    // and the order checked below fails).
    const late = (q: RecordedRequest) => isSub(q) && ["t6", "t7"].includes(promptOf(q));
    const gate = (n: number, which: (q: RecordedRequest) => boolean) =>
      fake.waitForRequests(n, undefined, which).catch(() => {});
    const gateOf = (p: string) => (p === "t1" ? gate(2, late) : p === "t6" || p === "t7" ? undefined : gate(5, isSub));
    const fake: FakeLLM = await serve(
      script([{ toolCalls: calls }, { text: "all done" }], (p) => ({ text: `answer to ${p}`, after: gateOf(p) })),
    );
    const r = await run(["-o", "stream-json", "go"], fake);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const subs = fake.requests.filter(isSub);
    expect(subs).toHaveLength(7);
    expect(fake.maxInFlight).toBe(5);
    // Sliding, not waves: t6 and t7 were sent while the slow t1 still held its slot.
    const t1 = subs.find((q) => promptOf(q) === "t1")!;
    for (const late of ["t6", "t7"]) {
      const q = subs.find((s) => promptOf(s) === late)!;
      expect(q.receivedAt).toBeLessThan(t1.finishedAt!);
    }
    // One result per call, in call order, each its own task's answer.
    const final = fake.requests.filter((q) => !isSub(q))[1];
    expect(results(final!)).toEqual(calls.map((c, i) => ({ id: c.id, text: `answer to t${i + 1}`, error: false })));
    const lines = jsonLines(r.stdout);
    // stream-json: the sub-agents' own turns carry the calling tool call's id; start and end lines per task.
    const subTurns = lines.filter((l) => l.type === "assistant" && l.parent_tool_use_id);
    expect(subTurns.map((l) => l.parent_tool_use_id).sort()).toEqual(calls.map((c) => c.id).sort());
    expect(subTurns.find((l) => l.parent_tool_use_id === "toolu_t3").message.content[0].text).toBe("answer to t3");
    expect(lines.filter((l) => l.subtype === "task_start")).toHaveLength(7);
    const ends = lines.filter((l) => l.subtype === "task_end");
    expect(ends.map((l) => l.is_error)).toEqual(Array(7).fill(false));
    const result = lines.at(-1);
    expect(result.result).toBe("all done");
    expect(result.stats.tasks_run).toBe(7);
    // Each transcript went through the session store under the parent session.
    const sessions = join(r.home, "data", "synapse", "sessions");
    const [session] = readdirSync(sessions);
    const tasks = readdirSync(join(sessions, session!, "tasks")).sort();
    expect(tasks).toEqual(calls.map((c) => c.id).sort());
    const transcript = readFileSync(join(sessions, session!, "tasks", "toolu_t2", "messages.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(transcript.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(transcript[0].content[0].text).toBe("t2");
    // The parent's own transcript holds only the results, not the sub-agents' turns.
    const parent = readFileSync(join(sessions, session!, "messages.jsonl"), "utf8");
    expect(parent.split("\n").filter(Boolean)).toHaveLength(4);
  }, 30_000);

  test("SYNAPSE_MAX_PARALLEL_TASKS caps the tasks in flight", async () => {
    const calls = Array.from({ length: 4 }, (_, i) => task(`toolu_c${i}`, `task:explore -p c${i}`));
    const fake = await serve(script([{ toolCalls: calls }, { text: "ok" }], (p) => ({ text: p, delayMs: 600 })));
    const r = await run(["-o", "json", "go"], fake, { SYNAPSE_MAX_PARALLEL_TASKS: "2" });
    expect(r.code).toBe(0);
    expect(fake.maxInFlight).toBe(2);
    expect(JSON.parse(r.stdout).stats.tasks_run).toBe(4);
  }, 30_000);

  test("Read, three tasks (explore and general), Write: in that order; a general task's Bash runs in the main pool, without the keys", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "synapse-order-")));
    writeFileSync(join(dir, "in.txt"), "input\n");
    const calls = [
      { id: "toolu_read", name: "Read", input: { path: "in.txt" } },
      task("toolu_a", 'task:explore -p a -d "look at a"'),
      task("toolu_b", "task:general --prompt b --description 'run b'"),
      task("toolu_c", "task:explore -p c"),
      { id: "toolu_write", name: "Write", input: { path: "out.txt", content: "written\n" } },
    ];
    const fake = await serve(
      script([{ toolCalls: calls }, { text: "finished" }], (p, turn) => {
        if (p === "b" && turn === 0)
          return {
            toolCalls: [{ name: "Bash", input: { command: "echo from-general-$((6*7)) key=[$ANTHROPIC_API_KEY]" } }],
          };
        return { text: `done ${p}`, delayMs: p === "c" ? 300 : 0 };
      }),
    );
    const r = await run(["-o", "stream-json", "-C", dir, "go"], fake);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const at = (pred: (l: any) => boolean) => lines.findIndex(pred);
    const readEnd = at((l) => l.type === "tool_use" && l.id === "toolu_read");
    const firstTask = at((l) => l.subtype === "task_start");
    const lastTaskEnd = lines.map((l, i) => (l.subtype === "task_end" ? i : -1)).reduce((a, b) => Math.max(a, b));
    const write = at((l) => l.type === "tool_use" && l.id === "toolu_write");
    expect(readEnd).toBeLessThan(firstTask);
    expect(lastTaskEnd).toBeLessThan(write);
    expect(existsSync(join(dir, "out.txt"))).toBe(true);
    const final = fake.requests.filter((q) => !isSub(q))[1];
    expect(results(final!).map((x) => x.id)).toEqual(calls.map((c) => c.id));
    expect(results(final!)[2]).toEqual({ id: "toolu_b", text: "done b", error: false });
    // The general task's command ran, and its result went back to that sub-agent only.
    const bSecond = fake.requests.find((q) => isSub(q) && promptOf(q) === "b" && q.body.messages.length === 3)!;
    expect(results(bSecond)[0]!.text).toContain("from-general-42");
    // The one shell pool keeps the provider keys out of sub-agents' commands too.
    expect(results(bSecond)[0]!.text).toContain("key=[]");
    const explorePrompt = fake.requests.find((q) => isSub(q) && promptOf(q) === "a")!;
    expect(explorePrompt.body.tools.map((t: any) => t.name).sort()).toEqual(["Glob", "Grep", "Read"]);
    expect(bSecond.body.tools.map((t: any) => t.name)).toContain("Write");
    expect(lines.at(-1).stats.commands_run).toBe(1);
    // Each task's end line counts its own tool calls.
    const toolCallsOf = (id: string) => lines.find((l) => l.subtype === "task_end" && l.tool_use_id === id).tool_calls;
    expect([toolCallsOf("toolu_a"), toolCallsOf("toolu_b"), toolCallsOf("toolu_c")]).toEqual([0, 1, 0]);
  }, 30_000);

  test("one failed task, one timed out, one fine: each result on its own", async () => {
    const calls = [
      task("toolu_bad", "task:explore -p bad"),
      task("toolu_slow", "task:explore -p slow"),
      task("toolu_ok", "task:explore -p ok"),
    ];
    const fake = await serve(
      script([{ toolCalls: calls }, { text: "reported" }], (p) => {
        if (p === "bad")
          return {
            status: 400,
            body: { type: "error", error: { type: "invalid_request_error", message: "prompt is poisoned" } },
          };
        if (p === "slow") return { hang: true };
        return { text: "fine answer" };
      }),
    );
    // The limit must outlast the other two tasks' whole run on a loaded machine; only `slow` reaches it.
    const r = await run(["-o", "json", "go"], fake, { SYNAPSE_TASK_TIMEOUT_MS: "5000" });
    expect(r.code).toBe(0);
    const got = results(fake.requests.filter((q) => !isSub(q))[1]!);
    expect(got[0]!.error).toBe(true);
    expect(got[0]!.text).toContain("prompt is poisoned");
    expect(got[1]!.error).toBe(true);
    expect(got[1]!.text).toContain("timed out after 5000 ms");
    expect(got[2]).toEqual({ id: "toolu_ok", text: "fine answer", error: false });
    expect(JSON.parse(r.stdout).stats.tasks_run).toBe(3);
  }, 30_000);

  test("a sub-agent whose heap passes SYNAPSE_TASK_MAX_HEAP_MB is stopped with an out-of-memory result", async () => {
    const calls = [task("toolu_big", "task:explore -p big"), task("toolu_small", "task:explore -p small")];
    // A reply of ~80 MB of text in 64 kB words: the sub-agent's heap grows as it streams in.
    const word = `${"w".repeat(65_535)} `;
    const fake = await serve(
      script([{ toolCalls: calls }, { text: "survived" }], (p) =>
        p === "big" ? { text: word.repeat(1200), chunkDelayMs: 1 } : { text: "small answer" },
      ),
    );
    const r = await run(["-o", "json", "go"], fake, { SYNAPSE_TASK_MAX_HEAP_MB: "48" });
    expect(r.code).toBe(0);
    const got = results(fake.requests.filter((q) => !isSub(q))[1]!);
    expect(got[0]!.error).toBe(true);
    expect(got[0]!.text).toMatch(/ran out of memory: its heap reached \d+ MB, over the 48 MB cap/);
    expect(got[1]).toEqual({ id: "toolu_small", text: "small answer", error: false });
    expect(JSON.parse(r.stdout).result).toBe("survived");
  }, 30_000);

  test("explore cannot write; a sub-agent cannot start sub-agents; a malformed call explains the syntax", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "synapse-ro-")));
    const calls = [
      task("toolu_ro", "task:explore -p try-write"),
      task("toolu_nest", "task:general -p try-nest"),
      task("toolu_bad", "task:explore --prompt"),
    ];
    const fake = await serve(
      script([{ toolCalls: calls }, { text: "ok" }], (p, turn) => {
        if (turn === 0 && p === "try-write")
          return { toolCalls: [{ name: "Write", input: { path: "hacked.txt", content: "x" } }] };
        if (turn === 0 && p === "try-nest")
          return { toolCalls: [{ name: "Bash", input: { command: "task:explore -p deeper" } }] };
        return { text: `after ${p}` };
      }),
    );
    const r = await run(["-o", "json", "-C", dir, "go"], fake);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, "hacked.txt"))).toBe(false);
    const second = (p: string) =>
      fake.requests.find((q) => isSub(q) && promptOf(q) === p && q.body.messages.length === 3)!;
    expect(results(second("try-write"))[0]).toMatchObject({ error: true });
    expect(results(second("try-write"))[0]!.text).toContain('Unknown tool "Write"');
    expect(results(second("try-nest"))[0]).toMatchObject({ error: true });
    expect(results(second("try-nest"))[0]!.text).toContain("cannot start sub-agents");
    expect(fake.requests.some((q) => isSub(q) && promptOf(q) === "deeper")).toBe(false);
    const got = results(fake.requests.filter((q) => !isSub(q))[1]!);
    expect(got[2]!.error).toBe(true);
    expect(got[2]!.text).toContain('Usage: task:explore --prompt "<what to find out>"');
    expect(JSON.parse(r.stdout).stats.tasks_run).toBe(2);
  }, 30_000);

  test("off a terminal: one plain stderr line per task start and end", async () => {
    const calls = [
      task("toolu_p1", 'task:explore -p x -d "first \u001b[31mlabel"'),
      task("toolu_p2", "task:general -p y"),
    ];
    const fake = await serve(
      script([{ toolCalls: calls }, { text: "answer" }], (p) => (p === "y" ? { status: 400 } : { text: "fine" })),
    );
    const r = await run(["go"], fake);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("answer\n");
    const lines = r.stderr.trim().split("\n");
    expect(lines).toContain("task:explore first ␛[31mlabel: started");
    expect(lines).toContain("task:general y: started");
    expect(lines.some((l) => /^✓ task:explore first ␛\[31mlabel \(\d+\.\ds, 0 tool calls\)$/.test(l))).toBe(true);
    expect(lines.some((l) => /^✗ task:general y \(\d+\.\ds, 0 tool calls\)$/.test(l))).toBe(true);
    expect(r.stderr).not.toContain("\x1b[");
    expect(lines).toHaveLength(4);
  }, 30_000);

  test("off a terminal: a task waiting for a slot is not printed as started until it leaves the queue", async () => {
    const calls = [task("toolu_q1", "task:explore -p one"), task("toolu_q2", "task:explore -p two")];
    const fake = await serve(script([{ toolCalls: calls }, { text: "answer" }], () => ({ text: "fine" })));
    const r = await run(["go"], fake, { SYNAPSE_MAX_PARALLEL_TASKS: "1" });
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split("\n");
    // One slot: the second task starts only after the first has ended.
    expect(lines[0]).toBe("task:explore one: started");
    expect(lines[1]).toMatch(/^✓ task:explore one /);
    expect(lines[2]).toBe("task:explore two: started");
    expect(lines[3]).toMatch(/^✓ task:explore two /);
  }, 30_000);

  test("an interrupt mid-batch stops every sub-agent, stream and command; every call gets a result", async () => {
    const marker = "4243.7";
    const calls = [
      ...Array.from({ length: 3 }, (_, i) => task(`toolu_sh${i}`, `task:general -p sh${i}`)),
      task("toolu_h1", "task:explore -p hang1"),
      task("toolu_h2", "task:explore -p hang2"),
      task("toolu_q", "task:explore -p queued"),
    ];
    const fake = await serve(
      script([{ toolCalls: calls }], (p, turn) => {
        if (p.startsWith("sh") && turn === 0)
          return { toolCalls: [{ name: "Bash", input: { command: `sleep ${marker}` } }] };
        return { hang: true };
      }),
    );
    const { proc, home, done } = start(["-o", "stream-json", "go"], fake);
    await fake.waitForRequests(5, undefined, isSub);
    const sleeps = () => survivors(`sleep ${marker}`);
    await pollUntil("the three sub-agents' commands to run", async () => (await sleeps()).length >= 3, {
      seen: sleeps,
    });
    const sent = performance.now();
    proc.kill("SIGINT");
    const r = await done;
    const ms = performance.now() - sent;
    expect(r.code).toBe(130);
    console.log(`interrupt with 5 sub-agents running and 1 queued: exit after ${ms.toFixed(0)} ms`);
    expect(await survivors(`sleep ${marker}`)).toEqual([]);
    expect(fake.requests.some((q) => isSub(q) && promptOf(q) === "queued")).toBe(false);
    // Every model stream was cut: the server sees each connection go (closing it may take a moment).
    await pollUntil("the fake to see every stream closed", () => fake.inFlight === 0, { seen: () => fake.inFlight });
    const lines = jsonLines(r.stdout);
    expect(lines.at(-1).subtype).toBe("interrupted");
    // The conversation stays valid: the saved session answers every call.
    const sessions = join(home, "data", "synapse", "sessions");
    const [session] = readdirSync(sessions);
    const saved = readFileSync(join(sessions, session!, "messages.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const last = saved.at(-1);
    expect(last.role).toBe("user");
    expect(last.content.map((b: any) => b.tool_use_id)).toEqual(calls.map((c) => c.id));
    expect(last.content.every((b: any) => b.is_error && /Interrupted/.test(b.content))).toBe(true);
  }, 30_000);
});
