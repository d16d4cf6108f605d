// The runtime seam on Deno (`deno run`, `deno compile`): Deno.Command for processes, synchronous
// writes to stdout/stderr, node:v8 for heap figures, node:path for globs.

import type { ChildProcess, Runtime, SpawnOptions, StdioMode } from "./runtime-types.ts";
import { portableStringWidth } from "./string-width.ts";
import { SYSTEM_PATH } from "./trusted-path.ts";

// Node's modules are fetched when used, not imported: this file is bundled into the Bun binary
// too, where importing node:fs and node:path up front would add ~6 ms to every start.
const nodeFs = () => process.getBuiltinModule("node:fs");
const nodePath = () => process.getBuiltinModule("node:path");

/** The parts of the Deno namespace used here (this project type-checks against Bun's types). */
interface DenoChild {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<{ code: number; signal: string | null }>;
  kill(signal?: string): void;
  unref(): void;
}
interface DenoCommandOptions {
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  clearEnv?: boolean;
  stdin?: "piped" | "null";
  stdout?: "piped" | "null";
  stderr?: "piped" | "null";
}
interface DenoApi {
  Command: new (
    command: string,
    options: DenoCommandOptions,
  ) => {
    spawn(): DenoChild;
    outputSync(): { code: number; stdout: Uint8Array };
  };
  stdout: { writeSync(bytes: Uint8Array): number };
  stderr: { writeSync(bytes: Uint8Array): number };
  stdin: { readable: ReadableStream<Uint8Array> };
}

const denoApi = () => (globalThis as unknown as { Deno: DenoApi }).Deno;
const mode = (m: StdioMode | undefined) => (m === "pipe" ? "piped" : "null");
const encoder = new TextEncoder();
const empty = () => new ReadableStream<Uint8Array>({ start: (c) => c.close() });

function writeAll(target: { writeSync(bytes: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(target.writeSync(bytes));
  } catch (err) {
    // Deno's BrokenPipe carries no errno code; the writers look for Node's.
    const e = err as NodeJS.ErrnoException;
    if (e.name === "BrokenPipe" && !e.code) e.code = "EPIPE";
    throw e;
  }
}

export function denoRuntime(): Runtime {
  const sink = (target: () => { writeSync(bytes: Uint8Array): number }) => ({
    write: (text: string) => writeAll(target(), text),
    // Writes are synchronous: nothing is ever left to flush.
    flush: () => Promise.resolve(),
  });
  return {
    name: "deno",
    threadPoolAtomics: false,
    spawn(argv: string[], options: SpawnOptions = {}): ChildProcess {
      // Deno's `detached` keeps the parent's session; setsid(1) execs in place (the child is no
      // group leader), so the pid stays the one Deno reports.
      const [command = "", ...args] = options.newSession ? ["setsid", ...argv] : argv;
      const child = new (denoApi().Command)(command, {
        args,
        cwd: options.cwd,
        env: options.env,
        clearEnv: options.env !== undefined,
        stdin: mode(options.stdin),
        stdout: mode(options.stdout),
        stderr: mode(options.stderr),
      }).spawn();
      let signalCode: string | null = null;
      const writer = options.stdin === "pipe" ? child.stdin.getWriter() : null;
      // A write to a child that has gone fails later, asynchronously; its exit is reported by `exited`.
      const quiet = (p: Promise<unknown>) => void p.catch(() => {});
      return {
        pid: child.pid,
        stdin: {
          write(data) {
            if (!writer) throw new Error("stdin is not a pipe");
            quiet(writer.write(typeof data === "string" ? encoder.encode(data) : data));
          },
          flush() {},
          end() {
            if (writer) quiet(writer.close());
          },
        },
        stdout: options.stdout === "pipe" ? child.stdout : empty(),
        stderr: options.stderr === "pipe" ? child.stderr : empty(),
        exited: child.status.then((s) => {
          signalCode = s.signal;
          return s.code;
        }),
        get signalCode() {
          return signalCode;
        },
        kill: (signal) => child.kill(signal ?? "SIGTERM"),
        unref: () => child.unref(),
      };
    },
    spawnSync(argv) {
      const [command = "", ...args] = argv;
      const options = {
        args,
        stdin: "null",
        stdout: "piped",
        stderr: "null",
        clearEnv: true,
        env: { PATH: SYSTEM_PATH },
      } as const;
      const r = new (denoApi().Command)(command, options).outputSync();
      return { exitCode: r.code, stdout: r.stdout };
    },
    stdout: sink(() => denoApi().stdout),
    stderr: sink(() => denoApi().stderr),
    stdinStream: () => denoApi().stdin.readable,
    fdStream(fd) {
      // Nothing wakes a reader of a non-blocking descriptor here, so an empty pipe is polled.
      const chunk = new Uint8Array(1 << 16);
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          for (;;) {
            let n: number;
            try {
              n = nodeFs().readSync(fd, chunk);
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
              await new Promise((resolve) => setTimeout(resolve, 20));
              continue;
            }
            if (n === 0) controller.close();
            else controller.enqueue(chunk.slice(0, n));
            return;
          }
        },
      });
    },
    gc() {
      (globalThis as { gc?: () => void }).gc?.();
    },
    async threadHeapBytes() {
      const { getHeapStatistics } = process.getBuiltinModule("node:v8");
      return () => getHeapStatistics().used_heap_size;
    },
    globMatcher(pattern) {
      const { matchesGlob } = nodePath();
      return (path) => matchesGlob(path, pattern);
    },
    stringWidth: portableStringWidth,
  };
}
