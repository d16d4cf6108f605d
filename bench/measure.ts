// Runs a command and measures its wall time and peak RSS. Bun's resourceUsage().maxRSS does not
// report the child's own peak here, so /usr/bin/time is used, or /proc sampling without it.

import "./temp-root.ts";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Measured {
  code: number;
  stdout: string;
  stderr: string;
  wallMs: number;
  peakRssMb: number;
}

export interface MeasureOptions {
  env?: Record<string, string>;
  stdin?: string;
  cwd?: string;
  /** Sees each stdout chunk as it arrives, with its performance.now() arrival time. */
  onStdout?: (text: string, at: number) => void;
}

const TIME = "/usr/bin/time";

export async function measure(argv: string[], opts: MeasureOptions = {}): Promise<Measured> {
  const useTime = existsSync(TIME);
  const report = join(mkdtempSync(join(tmpdir(), "synapse-measure-")), "rss");
  const full = useTime ? [TIME, "-f", "%M", "-o", report, ...argv] : argv;
  const t0 = performance.now();
  const proc = Bun.spawn(full, {
    env: { PATH: process.env.PATH!, ...opts.env },
    cwd: opts.cwd,
    stdin: opts.stdin !== undefined ? new TextEncoder().encode(opts.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let peakKb = 0;
  const sampler = useTime
    ? undefined
    : setInterval(() => {
        try {
          const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"));
          if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
        } catch {
          // The process has just exited.
        }
      }, 5);
  const readOut = async (): Promise<string> => {
    if (!opts.onStdout) return new Response(proc.stdout).text();
    const decoder = new TextDecoder();
    let all = "";
    for await (const chunk of proc.stdout) {
      const text = decoder.decode(chunk, { stream: true });
      opts.onStdout(text, performance.now());
      all += text;
    }
    return all;
  };
  const [stdout, stderr, code] = await Promise.all([readOut(), new Response(proc.stderr).text(), proc.exited]);
  const wallMs = performance.now() - t0;
  if (sampler) clearInterval(sampler);
  if (useTime) peakKb = Number(readFileSync(report, "utf8").trim().split("\n").pop());
  return { code, stdout, stderr, wallMs, peakRssMb: peakKb / 1024 };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

/** CPU time (ms) of every thread of a running process so far. */
export function cpuMs(pid: number): number {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread has just ended.
    }
  }
  return ns / 1e6;
}
