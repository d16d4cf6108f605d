// Sub-agents through the binary against the fake server: overhead per task on top of its model
// time (worker start, port messages, a shell round trip), the wall time of 10 tasks of 500 ms in
// 5 slots against the ideal 1.0 s, and peak RSS with 5 tasks running against one.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeLLM, type RecordedRequest, type ScriptedReply } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { measure, median } from "./measure.ts";

const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
const promptOf = (r: RecordedRequest) => r.body.messages[0].content.map((b: any) => b.text ?? "").join("");
const taskCall = (id: string, prompt: string, kind = "explore") => ({
  id,
  name: "Bash",
  input: { command: `task:${kind} -p ${prompt}` },
});

/** Tool results the main agent got back in its request `req` (checked before any figure is printed). */
function resultsOf(req: RecordedRequest): Array<{ text: string; error: boolean }> {
  const last = req.body.messages.at(-1);
  return last.content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => ({ text: String(b.content), error: b.is_error === true }));
}

/** Runs the binary with stream-json, timestamping each line as it arrives. */
async function runTimed(args: string[], env: Record<string, string>) {
  const proc = Bun.spawn([BINARY, ...args], {
    env: { PATH: process.env.PATH!, ...env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const lines: Array<{ at: number; value: any }> = [];
  let rest = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout) {
    const now = performance.now();
    rest += decoder.decode(chunk, { stream: true });
    const parts = rest.split("\n");
    rest = parts.pop()!;
    for (const p of parts) if (p.trim()) lines.push({ at: now, value: JSON.parse(p) });
  }
  const code = await proc.exited;
  if (code !== 0) throw new Error(`synapse exited ${code}: ${await new Response(proc.stderr).text()}`);
  return lines;
}

type Variant = "explore" | "general" | "read" | "bash";

/**
 * Gaps seen by the server between a main-agent reply that asks for one tool call and the next
 * main request (which carries its result), for `tasks` turns in a row, minus the sub-agent's own
 * model time. The fake answers at once. `read`/`bash` are the same loop without sub-agents.
 */
async function gaps(variant: Variant, tasks = 20): Promise<number[]> {
  let main = 0;
  const server = await startFakeLLM((req): ScriptedReply => {
    if (isSub(req)) {
      return variant === "general" && req.body.messages.length === 1
        ? { toolCalls: [{ name: "Bash", input: { command: "echo port-ok" } }] }
        : { text: `done ${promptOf(req)}` };
    }
    main++;
    if (main > tasks) return { text: "finished" };
    const id = `toolu_o${main}`;
    if (variant === "read") return { toolCalls: [{ id, name: "Read", input: { path: "note.txt" } }] };
    if (variant === "bash") return { toolCalls: [{ id, name: "Bash", input: { command: "echo port-ok" } }] };
    return { toolCalls: [taskCall(id, `o${main}`, variant)] };
  });
  const home = tempHome();
  writeFileSync(join(home.dir, "note.txt"), "a note\n");
  await runTimed(["-o", "stream-json", "--max-turns", String(tasks + 2), "-C", home.dir, "go"], {
    ...home.env,
    ...providerEnv(server.url),
  });
  await server.stop();
  const mains = server.requests.filter((r) => !isSub(r));
  const out: number[] = [];
  for (let i = 1; i <= tasks; i++) {
    const [r] = resultsOf(mains[i]!);
    if (variant === "explore" || variant === "general") {
      if (r!.error || r!.text !== `done o${i}`) throw new Error(`task o${i} answered ${JSON.stringify(r)}`);
      if (variant === "general") {
        const second = server.requests.find(
          (q) => isSub(q) && promptOf(q) === `o${i}` && q.body.messages.length === 3,
        )!;
        if (!JSON.stringify(second.body.messages.at(-1)).includes("port-ok"))
          throw new Error(`task o${i}: its command's output did not come back`);
      }
    } else if (r!.error) throw new Error(`${variant} failed: ${r!.text}`);
    const model = server.requests
      .filter((q) => isSub(q) && promptOf(q) === `o${i}`)
      .reduce((sum, q) => sum + (q.finishedAt! - q.receivedAt), 0);
    out.push(mains[i]!.receivedAt - mains[i - 1]!.finishedAt! - model);
  }
  return out;
}

async function overhead() {
  const read = await gaps("read");
  const explore = await gaps("explore");
  const bash = await gaps("bash");
  const general = await gaps("general");
  const line = (what: string, task: number[], base: number[], baseName: string) =>
    console.log(
      `  ${what}: first ${task[0]!.toFixed(1)} ms (thread start), median ${median(task).toFixed(1)} ms a turn against ${median(base).toFixed(1)} ms for a ${baseName} call: +${(median(task) - median(base)).toFixed(1)} ms per task`,
    );
  console.log("overhead per task (20 in a row, one per turn, fake answers at once, sub-agent model time taken out):");
  line("task:explore answering at once", explore, read, "Read");
  line("task:general running one command over the port", general, bash, "Bash");
}

async function slidingWall() {
  let main = 0;
  const server = await startFakeLLM((req): ScriptedReply => {
    if (isSub(req)) return { text: `answer ${promptOf(req)}`, delayMs: 500 };
    return main++ === 0
      ? { toolCalls: Array.from({ length: 10 }, (_, i) => taskCall(`toolu_w${i}`, `w${i}`)) }
      : { text: "ok" };
  });
  const lines = await runTimed(["-o", "stream-json", "go"], {
    ...tempHome().env,
    ...providerEnv(server.url),
    SYNAPSE_MAX_PARALLEL_TASKS: "5",
  });
  await server.stop();
  const got = resultsOf(server.requests.filter((r) => !isSub(r))[1]!);
  if (got.length !== 10 || got.some((r, i) => r.error || r.text !== `answer w${i}`))
    throw new Error(`wrong results ${JSON.stringify(got)}`);
  const first = lines.find((l) => l.value.subtype === "task_start")!.at;
  const last = Math.max(...lines.filter((l) => l.value.subtype === "task_end").map((l) => l.at));
  console.log(
    `10 tasks of 500 ms, 5 slots: ${(last - first).toFixed(0)} ms (ideal 1000 ms; at most ${server.maxInFlight} requests in flight)`,
  );
}

async function rss() {
  const out: number[] = [];
  for (const n of [1, 5]) {
    let main = 0;
    const server = await startFakeLLM((req): ScriptedReply => {
      if (isSub(req)) return { text: `answer ${promptOf(req)}`, delayMs: 1000 };
      return main++ === 0
        ? { toolCalls: Array.from({ length: n }, (_, i) => taskCall(`toolu_m${i}`, `m${i}`)) }
        : { text: "ok" };
    });
    const run = await measure([BINARY, "-o", "json", "go"], { env: { ...tempHome().env, ...providerEnv(server.url) } });
    await server.stop();
    const result = JSON.parse(run.stdout);
    if (run.code !== 0 || result.stats.tasks_run !== n || server.maxInFlight !== n)
      throw new Error(`run with ${n} tasks: ${run.stdout} ${run.stderr}`);
    out.push(run.peakRssMb);
  }
  console.log(
    `peak RSS: 1 task running ${out[0]!.toFixed(0)} MiB, 5 at once ${out[1]!.toFixed(0)} MiB (+${((out[1]! - out[0]!) / 4).toFixed(1)} MiB per extra task)`,
  );
}

export async function main() {
  await overhead();
  await slidingWall();
  await rss();
}

if (import.meta.main) await main();
