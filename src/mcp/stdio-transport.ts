// The stdio transport, ours rather than the SDK's: the server runs in a session of its own
// (setsid), so ending it ends everything it started, and a watchdog ends that session if synapse
// dies, even by `kill -9` (as the shell pool's shells). Its stderr goes to a log file, never to the
// terminal; a line on stdout that is not JSON-RPC is logged and skipped, not fatal.

import { appendFileSync } from "node:fs";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { runtime, type ChildProcess } from "../runtime/runtime.ts";
import { startWatchdog, type Watchdog } from "../shell/watchdog.ts";

export interface StdioLaunch {
  /** The program (an absolute path) and its arguments. */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Where the server's stderr and skipped stdout lines go. */
  logPath: string;
  /** The watchdog script's path and the environment it runs with. */
  watchdogPath: string;
  watchdogEnv: Record<string, string>;
}

/** A line longer than this is no message a client could use: the server is dropped as broken. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private proc: ChildProcess | null = null;
  private watchdog: Watchdog | null = null;
  private closed = false;

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  async start(): Promise<void> {
    const { argv, cwd, env } = this.launch;
    const proc = runtime.spawn(argv, { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe", newSession: true });
    this.proc = proc;
    this.watchdog = startWatchdog(this.launch.watchdogPath, proc.pid, this.launch.watchdogEnv);
    // Without an exit handler the exited promise keeps nothing alive: these are the server's lifelines.
    void this.readStdout(proc.stdout);
    void this.copyStderr(proc.stderr);
    void proc.exited.then((code) => {
      this.log(`[synapse] server exited (${proc.signalCode ?? `status ${code}`})\n`);
      this.ended();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.proc || this.closed) throw new Error("the server is not running");
    this.proc.stdin.write(`${JSON.stringify(message)}\n`);
    this.proc.stdin.flush();
  }

  async close(): Promise<void> {
    this.killNow();
    await this.proc?.exited;
    this.ended();
  }

  /** SIGKILL to the server's whole session, at once (also on the way out of the process). */
  killNow(): void {
    const pid = this.proc?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
    this.watchdog?.stop();
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    // Its background children, if any, go with it.
    this.killNow();
    this.onclose?.();
  }

  private log(text: string): void {
    try {
      appendFileSync(this.launch.logPath, text);
    } catch {
      // A log that cannot be written must not end the server.
    }
  }

  private async copyStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream) this.log(Buffer.from(chunk).toString("utf8"));
    } catch {
      // the pipe closed with the process
    }
  }

  private async readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    try {
      for await (const chunk of stream) {
        let data = Buffer.from(chunk);
        let nl = data.indexOf(10);
        while (nl !== -1) {
          pending.push(data.subarray(0, nl));
          this.line(Buffer.concat(pending).toString("utf8"));
          pending = [];
          pendingBytes = 0;
          data = data.subarray(nl + 1);
          nl = data.indexOf(10);
        }
        if (data.length) {
          pending.push(data);
          pendingBytes += data.length;
          if (pendingBytes > MAX_LINE_BYTES) {
            this.onerror?.(new Error(`the server wrote a line over ${MAX_LINE_BYTES} bytes`));
            this.killNow();
            return;
          }
        }
      }
    } catch {
      // the pipe closed with the process
    }
  }

  private line(text: string): void {
    const trimmed = text.replace(/\r$/, "");
    if (!trimmed.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    const message = parsed === undefined ? undefined : JSONRPCMessageSchema.safeParse(parsed);
    if (!message?.success) {
      this.log(`[synapse] skipped a stdout line that is not JSON-RPC: ${trimmed.slice(0, 200)}\n`);
      return;
    }
    this.onmessage?.(message.data);
  }
}
