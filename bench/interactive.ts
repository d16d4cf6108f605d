// The interactive session on a real pseudo-terminal (util-linux `script`), against the fake server:
// exec → first frame (prompt drawn, typing accepted: a key typed as it appears must show in the
// draft) and → session ready (status line), in wall time and in CPU time at the first frame (every
// thread, /proc/<pid>/task/*/schedstat: steadier than wall time on a busy machine); keystroke →
// echo latency while an answer streams at a high rate; RSS idle and after 200 turns.
//
// `bun bench/interactive.ts [binary]`: another binary (an older build, say) is measured in the
// same runs, interleaved with dist/synapse, for the start-up figures (START_ONLY=1: only those).

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import stripAnsi from "strip-ansi";
import { startFakeLLM } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { cpuMs, median } from "./measure.ts";

const RUNS = Number(process.env.RUNS ?? 20);
const other = process.argv[2] ? resolve(process.argv[2]) : undefined;

interface Pty {
  proc: ReturnType<typeof Bun.spawn>;
  output(): string;
  /** Resolves with the time (performance.now()) the output first contains `text` after `from`. */
  waitFor(text: string, from?: number, timeoutMs?: number): Promise<number>;
  send(text: string): void;
  synapsePid(): number;
  close(): Promise<void>;
}

function openPty(env: Record<string, string>, cwd: string, program = BINARY): Pty {
  const proc = Bun.spawn(["script", "-qfec", `stty cols 120 rows 40; exec ${program}`, "/dev/null"], {
    env: { PATH: process.env.PATH!, TERM: "xterm-256color", ...env },
    cwd,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  const waiters: { text: string; from: number; resolve: (t: number) => void }[] = [];
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      const now = performance.now();
      out += decoder.decode(chunk, { stream: true });
      for (const w of [...waiters]) {
        if (out.indexOf(w.text, w.from) >= 0) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(now);
        }
      }
    }
  })();
  return {
    proc,
    output: () => out,
    waitFor(text, from = 0, timeoutMs = 20_000) {
      if (out.indexOf(text, from) >= 0) return Promise.resolve(performance.now());
      return new Promise((resolve, reject) => {
        waiters.push({ text, from, resolve });
        setTimeout(
          () => reject(new Error(`never saw ${JSON.stringify(text)}; tail: ${JSON.stringify(out.slice(-300))}`)),
          timeoutMs,
        ).unref();
      });
    },
    send(text) {
      (proc.stdin as import("bun").FileSink).write(text);
      (proc.stdin as import("bun").FileSink).flush();
    },
    synapsePid() {
      // script's child: the shell that runs stty, then execs the program in its place.
      const pid = Number(readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, "utf8").trim().split(" ")[0]);
      if (!pid) throw new Error("script has not started its child yet");
      return pid;
    },
    async close() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}

interface Start {
  /** exec → the prompt's first frame, and the process's CPU time then. */
  frame: number;
  cpu: number;
  /** → a key typed as the first frame appeared is drawn in the draft. */
  echo: number;
  /** → the status line (the session open). */
  ready: number;
}

/** One start: the prompt must be drawn, take a key typed at once, then show the session open. */
async function start(program: string, env: Record<string, string>): Promise<Start> {
  const home = tempHome();
  const t0 = performance.now();
  const pty = openPty({ ...home.env, ...env }, home.dir, program);
  let pid = 0;
  // The pid is taken while the program starts, so the CPU reading at the frame is not late.
  while (!pid && pty.output() === "") {
    await Bun.sleep(1);
    try {
      pid = pty.synapsePid();
    } catch {}
  }
  const frame = (await pty.waitFor("›")) - t0;
  const cpu = pid ? cpuMs(pid) : Number.NaN;
  const at = pty.output().lastIndexOf("›");
  pty.send("Q");
  const echo = (await pty.waitFor("Q", at)) - t0;
  const ready = (await pty.waitFor("% context")) - t0;
  await Bun.sleep(20);
  const screen = stripAnsi(pty.output());
  await pty.close();
  // The key went into the draft (not echoed by a terminal still in cooked mode, nor lost).
  if (!screen.includes("› Q")) throw new Error(`${program}: the key typed at the first frame is not in the draft`);
  return { frame, cpu, echo, ready };
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

export async function main() {
  // The answer names the turn it answers, so a condense's summary request does not shift the count.
  const fake = await startFakeLLM(
    (req) => {
      const last = JSON.stringify(req.body.messages.at(-1));
      return { text: `answer to ${/turn (\d+)/.exec(last)?.[1] ?? "?"} done` };
    },
    { models: [{ id: "claude-sonnet-5-5" }] },
  );
  const env = providerEnv(fake.url);

  // 1. Start-up, and what `script` and stty alone take before any program runs (subtracted below);
  // with another binary, its runs interleaved with these.
  const baseline: number[] = [];
  const programs = other ? [BINARY, other] : [BINARY];
  const starts = programs.map((): Start[] => []);
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const pty = openPty({}, "/tmp", "printf '\\342\\200\\272'");
    baseline.push((await pty.waitFor("›")) - t0);
    await pty.close();
    for (const [k, program] of programs.entries()) starts[k]!.push(await start(program, env));
  }
  const base = median(baseline);
  console.log(`pty harness alone (script + stty + printf): median ${base.toFixed(1)} ms`);
  for (const [k, program] of programs.entries()) {
    const runs = starts[k]!;
    const of = (f: (s: Start) => number) => median(runs.map(f));
    if (other) console.log(program);
    console.log(
      `exec → first frame (prompt usable): median ${(of((s) => s.frame) - base).toFixed(1)} ms over ${RUNS} (${of((s) => s.frame).toFixed(1)} ms with the harness); CPU ${of((s) => s.cpu).toFixed(1)} ms`,
    );
    console.log(`exec → a key typed then, drawn:    median ${(of((s) => s.echo) - base).toFixed(1)} ms`);
    console.log(`exec → session ready (status line):  median ${(of((s) => s.ready) - base).toFixed(1)} ms`);
  }
  if (process.env.START_ONLY === "1") {
    await fake.stop();
    return;
  }

  // 2. Keystroke → echo while an answer streams fast (one SSE event per ms, ~4 chars each).
  const streaming = await startFakeLLM([{ text: "lorem ipsum dolor sit amet ".repeat(3000), chunkDelayMs: 1 }], {
    models: [{ id: "claude-sonnet-5-5" }],
  });
  const home = tempHome();
  // No colour here only so the prompt row can be matched as plain text ("› QX…").
  const pty = openPty({ ...home.env, ...providerEnv(streaming.url), NO_COLOR: "1" }, home.dir);
  await pty.waitFor("% context");
  pty.send("stream please\r");
  await pty.waitFor("lorem ipsum dolor sit amet lorem");
  const latencies: number[] = [];
  const keys = "QXZJKVWQXZJKVWQXZJKV";
  for (let i = 0; i < keys.length; i++) {
    const marker = keys.slice(0, i + 1);
    const from = pty.output().length;
    const t0 = performance.now();
    pty.send(keys[i]!);
    // The prompt row is redrawn with everything typed so far: wait for that exact draft.
    latencies.push((await pty.waitFor(`› ${marker}`, Math.max(0, from - 200))) - t0);
  }
  const streamed = streaming.requests.length === 1 && pty.output().includes("lorem ipsum");
  // Latencies taken while no answer streamed would measure an idle editor.
  if (!streamed) throw new Error("the answer did not stream while the keys were typed");
  await pty.close();
  await streaming.stop();

  // 3. RSS idle, then after 200 turns.
  const home2 = tempHome();
  const pty2 = openPty({ ...home2.env, ...env }, home2.dir);
  await pty2.waitFor("% context");
  await Bun.sleep(300);
  const pid = pty2.synapsePid();
  const idle = rssMb(pid);
  for (let i = 0; i < 200; i++) {
    const from = pty2.output().length;
    pty2.send(`turn ${i}\r`);
    await pty2.waitFor(`answer to ${i} done`, from);
  }
  const after = rssMb(pid);
  const turnsSent = fake.requests.filter((r) => r.path === "/v1/messages" && r.body.tools?.length).length;
  if (turnsSent < 200) throw new Error(`only ${turnsSent} of 200 turns reached the server`);
  await pty2.close();
  await fake.stop();

  console.log(
    `keystroke → echo while streaming:    median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${latencies.length} keys; answer streamed: ${streamed})`,
  );
  console.log(`RSS idle ${idle.toFixed(1)} MB; after ${turnsSent} turns ${after.toFixed(1)} MB`);
}

if (import.meta.main) await main();
