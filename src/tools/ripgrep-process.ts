// Runs ripgrep and hands its output over record by record as it streams, and stops it (its whole
// process group, not a drain) once the caller has enough, the run is interrupted, or time is up.

export interface RipgrepOptions {
  cwd: string;
  signal: AbortSignal;
  timeoutMs: number;
  env: Readonly<Record<string, string>>;
  /** Byte that ends a record: "\n" for lines, 0 for NUL-separated paths. */
  separator?: number;
  /** Gets each record without its separator; returns false when it has enough. */
  onRecord(record: Buffer): boolean;
  /** A file already opened and judged, handed to rg as its fd 3 (`/proc/self/fd/3`): see grep.ts. */
  pinnedFd?: number;
}

export interface RipgrepOutcome {
  /** rg's exit code (0 found, 1 none, 2 error), null when it was stopped. */
  code: number | null;
  stderr: string;
  stopped: "enough" | "aborted" | "timeout" | null;
}

const MAX_STDERR = 4096;
const running = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export async function runRipgrep(rgPath: string, args: string[], opts: RipgrepOptions): Promise<RipgrepOutcome> {
  // Loaded on first use: node:child_process would otherwise load at every start, searches or not.
  const { spawn } = await import("node:child_process");
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A search left running would outlive synapse in its own session.
    process.once("exit", () => running.forEach(killGroup));
  }
  const separator = opts.separator ?? 0x0a;
  return new Promise((resolve, reject) => {
    // detached: its own process group, so stopping it stops everything it started.
    const child = spawn(rgPath, args, {
      cwd: opts.cwd,
      env: opts.env,
      // A fourth entry (fd 3) only for a handed-over file; the types know the three-entry form.
      stdio: ["ignore", "pipe", "pipe", opts.pinnedFd ?? "ignore"] as unknown as ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stopped: RipgrepOutcome["stopped"] = null;
    let stderr = "";
    let pending: Buffer[] = [];
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);
    // Once rg is reaped its group id is free for another process: never signal it after that
    // (its output can still be draining when it has already exited).
    child.once("exit", () => pid !== undefined && running.delete(pid));

    const stop = (why: NonNullable<RipgrepOutcome["stopped"]>) => {
      if (stopped) return;
      stopped = why;
      if (pid !== undefined && running.has(pid)) killGroup(pid);
      child.stdout.destroy();
    };
    const onAbort = () => stop("aborted");
    if (opts.signal.aborted) onAbort();
    opts.signal.addEventListener("abort", onAbort);
    const timer = setTimeout(() => stop("timeout"), opts.timeoutMs);

    // A consumer that throws would otherwise throw from an event handler and end the process.
    let failure: unknown;
    const take = (record: Buffer): boolean => {
      try {
        return opts.onRecord(record);
      } catch (err) {
        failure ??= err;
        return false;
      }
    };
    child.stdout.on("data", (chunk: Buffer) => {
      if (stopped) return;
      let start = 0;
      for (let end = chunk.indexOf(separator, start); end !== -1; end = chunk.indexOf(separator, start)) {
        const piece = chunk.subarray(start, end);
        const record = pending.length ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        start = end + 1;
        if (!take(record)) return stop("enough");
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR) stderr += chunk.toString("utf8").slice(0, MAX_STDERR - stderr.length);
    });
    const finish = () => {
      clearTimeout(timer);
      opts.signal.removeEventListener("abort", onAbort);
      if (pid !== undefined) running.delete(pid);
    };
    child.on("error", (err) => {
      finish();
      reject(err);
    });
    child.on("close", (code) => {
      finish();
      // A last record without a trailing separator still counts.
      if (!stopped && pending.length) take(Buffer.concat(pending));
      if (failure !== undefined) return reject(failure);
      resolve({ code: stopped ? null : code, stderr: stderr.trim(), stopped });
    });
  });
}
