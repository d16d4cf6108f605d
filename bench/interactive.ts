// The interactive session on a real pseudo-terminal (util-linux `script`), against the fake server:
// exec → first frame (prompt drawn, typing accepted) and → session ready (status line); keystroke
// → echo latency while an answer streams at a high rate; RSS idle and after 200 turns.

import { readFileSync } from "node:fs";
import { startFakeLLM } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { median } from "./measure.ts";

const RUNS = 10;

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
      const children = Bun.spawnSync(["pgrep", "-P", String(proc.pid)])
        .stdout.toString()
        .trim()
        .split("\n");
      return Number(children[0]);
    },
    async close() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
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

  // 1. Start-up, and what `script` and stty alone take before any program runs (subtracted below).
  const baseline: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const pty = openPty({}, "/tmp", "printf '\\342\\200\\272'");
    baseline.push((await pty.waitFor("›")) - t0);
    await pty.close();
  }
  const firstFrame: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const home = tempHome();
    const t0 = performance.now();
    const pty = openPty({ ...home.env, ...env }, home.dir);
    firstFrame.push((await pty.waitFor("›")) - t0);
    ready.push((await pty.waitFor("% context")) - t0);
    await pty.close();
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

  const base = median(baseline);
  console.log(`pty harness alone (script + stty + printf): median ${base.toFixed(1)} ms`);
  console.log(
    `exec → first frame (prompt usable): median ${(median(firstFrame) - base).toFixed(1)} ms over ${RUNS} (${median(firstFrame).toFixed(1)} ms with the harness)`,
  );
  console.log(`exec → session ready (status line):  median ${(median(ready) - base).toFixed(1)} ms`);
  console.log(
    `keystroke → echo while streaming:    median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${latencies.length} keys; answer streamed: ${streamed})`,
  );
  console.log(`RSS idle ${idle.toFixed(1)} MB; after ${turnsSent} turns ${after.toFixed(1)} MB`);
}

if (import.meta.main) await main();
