// The runtime seam on Bun (the shipped binary): Bun's spawn, file sinks and heap figures, chosen
// for start-up cost (process.stdout costs ~8 ms in a compiled binary) and speed.

import type { ChildProcess, Runtime, SpawnOptions } from "./runtime-types.ts";
import { SYSTEM_PATH } from "./trusted-path.ts";

const notPiped = {
  write() {
    throw new Error("stdin is not a pipe");
  },
  flush() {},
  end() {},
};

export function bunRuntime(): Runtime {
  let stdout: Bun.FileSink | undefined;
  let stderr: Bun.FileSink | undefined;
  const sink = (get: () => Bun.FileSink) => ({
    write(text: string) {
      get().write(text);
    },
    async flush() {
      await get().flush();
    },
  });
  return {
    name: "bun",
    threadPoolAtomics: true,
    spawn(argv: string[], options: SpawnOptions = {}): ChildProcess {
      const proc = Bun.spawn(argv, {
        cwd: options.cwd,
        env: options.env,
        stdin: options.stdin ?? "ignore",
        stdout: options.stdout ?? "ignore",
        stderr: options.stderr ?? "ignore",
        // Bun's detached calls setsid().
        detached: options.newSession ?? false,
      });
      return {
        pid: proc.pid,
        stdin: options.stdin === "pipe" ? (proc.stdin as Bun.FileSink) : notPiped,
        stdout: proc.stdout as ReadableStream<Uint8Array>,
        stderr: proc.stderr as ReadableStream<Uint8Array>,
        exited: proc.exited,
        get signalCode() {
          return proc.signalCode === null ? null : String(proc.signalCode);
        },
        kill: (signal) => proc.kill(signal),
        unref: () => proc.unref(),
      };
    },
    spawnSync(argv) {
      const r = Bun.spawnSync(argv, { stdout: "pipe", stderr: "ignore", env: { PATH: SYSTEM_PATH } });
      return { exitCode: r.exitCode, stdout: r.stdout };
    },
    stdout: sink(() => (stdout ??= Bun.stdout.writer())),
    stderr: sink(() => (stderr ??= Bun.stderr.writer())),
    stdinStream: () => Bun.stdin.stream(),
    fdStream: (fd) => Bun.file(fd).stream(),
    gc: () => Bun.gc(true),
    async threadHeapBytes() {
      // A variable specifier: other runtimes must not try to resolve bun: modules ahead of time.
      const jsc = "bun:jsc";
      const { heapSize } = (await import(jsc)) as typeof import("bun:jsc");
      return heapSize;
    },
    globMatcher(pattern) {
      const glob = new Bun.Glob(pattern);
      return (path) => glob.match(path);
    },
    stringWidth: (text) => Bun.stringWidth(text),
  };
}
