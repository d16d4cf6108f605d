// The shape of the runtime seam (runtime.ts): what Synapse asks of Bun or Deno. Apart from the
// choice of implementation, so the implementations can name these types without importing it.

export type StdioMode = "pipe" | "ignore";

export interface SpawnOptions {
  cwd?: string;
  /** The child's whole environment (nothing is inherited beyond it). */
  env?: Record<string, string>;
  stdin?: StdioMode;
  stdout?: StdioMode;
  stderr?: StdioMode;
  /** The child leads a new session (setsid): terminal signals meant for synapse do not reach it. */
  newSession?: boolean;
}

export interface ChildProcess {
  readonly pid: number;
  /** Writes go out in order; `flush` pushes what is buffered (a no-op where writes are not buffered). */
  readonly stdin: { write(data: string | Uint8Array): void; flush(): void; end(): void };
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** The exit status; after it resolves, `signalCode` names the signal that ended the child, if one did. */
  readonly exited: Promise<number>;
  readonly signalCode: string | null;
  kill(signal?: NodeJS.Signals): void;
  /** The child no longer keeps this process alive. */
  unref(): void;
}

/** A writer for stdout or stderr that costs nothing at start-up. */
export interface StdioSink {
  /** May throw (EPIPE: the reader went away). */
  write(text: string): void;
  /** Resolves once what was written is out; rejects with the write's error. */
  flush(): Promise<void>;
}

export interface Runtime {
  readonly name: "bun" | "deno";
  spawn(argv: string[], options?: SpawnOptions): ChildProcess;
  /**
   * Runs to the end and returns its exit status and stdout (stderr is dropped). The child gets no
   * environment but a system PATH: what synapse runs this way for itself never needs the keys.
   */
  spawnSync(argv: string[]): { exitCode: number; stdout: Uint8Array };

  readonly stdout: StdioSink;
  readonly stderr: StdioSink;
  stdinStream(): ReadableStream<Uint8Array>;
  /** Reads a non-blocking descriptor (a named pipe) until end-of-file; cancel() stops it. */
  fdStream(fd: number): ReadableStream<Uint8Array>;
  /** A full, synchronous garbage collection where the runtime offers one (Deno: only with --expose-gc). */
  gc(): void;
  /** The heap size of the calling thread (each worker thread has its own). */
  threadHeapBytes(): Promise<() => number>;
  /**
   * Whether tinypool may hand tasks to idle threads through Atomics.wait. Under Deno 2.9 a thread
   * so started missed its first task about one time in three (measured: 8 of 12 starts answered;
   * 36 of 36 without Atomics), so there it waits on messages instead.
   */
  readonly threadPoolAtomics: boolean;
  /** A matcher for a glob pattern (`*`, `**`, `?`, `[...]`, `{a,b}`) against a relative path. */
  globMatcher(pattern: string): (path: string) => boolean;
  /** The columns a terminal gives `text`, by grapheme cluster; ANSI sequences take none. */
  stringWidth(text: string): number;
}
