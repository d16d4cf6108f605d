// Runs one hook command: `bash -c <command>` with the event as JSON on stdin, inside the OS sandbox
// when there is one (the shell pool's bwrap profile), with the allow-listed environment, in a
// session and process group of its own, within its time limit. Whatever it leaves running is
// killed with its group when it ends: a hook is not a way to start daemons.

import { runtime } from "../runtime/runtime.ts";
import type { CommandResult } from "./hook-output.ts";

/** Output kept per stream; the rest is read and dropped so the hook never blocks on a full pipe. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

export interface HookProcessOptions {
  cwd: string;
  bash: string;
  /** The environment (never the provider keys). */
  env: Readonly<Record<string, string>>;
  /** bwrap and its options up to `--`, asked at each start; undefined when hooks run unconfined. */
  sandboxArgv?: () => string[];
}

/**
 * How long the pipes are still read once the hook's group is gone: what it wrote is in the pipe
 * already. A process that left the group (`setsid`, unconfined) may hold them open for ever.
 */
const PIPE_GRACE_MS = 500;

/** The stream's text (capped) until it ends or `stop` settles, whichever is first. */
async function readCapped(stream: ReadableStream<Uint8Array>, stop: Promise<void>): Promise<string> {
  const reader = stream.getReader();
  const stopped = stop.then(() => undefined);
  const decoder = new TextDecoder();
  let text = "";
  let kept = 0;
  for (;;) {
    const next = await Promise.race([reader.read(), stopped]);
    if (next === undefined) {
      reader.cancel().catch(() => {});
      break;
    }
    if (next.done) break;
    if (kept >= MAX_OUTPUT_BYTES) continue;
    const part = next.value.subarray(0, MAX_OUTPUT_BYTES - kept);
    kept += part.length;
    text += decoder.decode(part, { stream: true });
  }
  return text + decoder.decode();
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Hooks running now: a sandboxed one dies with synapse (--die-with-parent), an unconfined one by this. */
const running = new Set<number>();
let exitHookSet = false;
function track(pid: number): void {
  running.add(pid);
  if (exitHookSet) return;
  exitHookSet = true;
  process.once("exit", () => {
    for (const group of running) killGroup(group);
  });
}

export async function runHookCommand(
  command: string,
  input: string,
  timeoutMs: number,
  opts: HookProcessOptions,
  signal: AbortSignal,
): Promise<CommandResult> {
  const argv = [...(opts.sandboxArgv?.() ?? []), opts.bash, "--noprofile", "--norc", "-c", command];
  let proc: ReturnType<typeof runtime.spawn>;
  try {
    proc = runtime.spawn(argv, {
      cwd: opts.cwd,
      env: { ...opts.env },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      newSession: true,
    });
  } catch (err) {
    return { code: 127, stdout: "", stderr: `cannot start: ${(err as Error).message}` };
  }
  track(proc.pid);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(proc.pid);
  }, timeoutMs);
  const onAbort = () => killGroup(proc.pid);
  signal.addEventListener("abort", onAbort, { once: true });
  let stopReading = () => {};
  const stop = new Promise<void>((resolve) => {
    stopReading = resolve;
  });
  const stdout = readCapped(proc.stdout, stop);
  const stderr = readCapped(proc.stderr, stop);
  // A hook that exits without reading its stdin breaks the pipe: that is its right, not an error
  // (Bun's sink reports it as a rejected promise, which must not go unhandled).
  const quiet = (result: unknown) => {
    if (result instanceof Promise) result.catch(() => {});
  };
  try {
    quiet(proc.stdin.write(input));
    quiet(proc.stdin.flush());
    quiet(proc.stdin.end());
  } catch {
    // It exited before reading: its exit code says the rest.
  }
  const code = await proc.exited;
  clearTimeout(timer);
  signal.removeEventListener("abort", onAbort);
  // Stragglers (a job left running) hold the pipes open: they end with the hook.
  killGroup(proc.pid);
  running.delete(proc.pid);
  const grace = setTimeout(stopReading, PIPE_GRACE_MS);
  const [out, err] = await Promise.all([stdout, stderr]);
  clearTimeout(grace);
  return { code: proc.signalCode ? null : code, stdout: out, stderr: err, ...(timedOut ? { timedOut } : {}) };
}
