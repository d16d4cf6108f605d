// Hands out fresh named pipes for command output. Node has no mkfifo, and one `mkfifo` run per
// command would cost more than the command itself, so they are made in batches ahead of need.

import { join } from "node:path";
import { runtime } from "../runtime/runtime.ts";
import { trustedBinary } from "../runtime/trusted-path.ts";

const BATCH = 64;

export class FifoStock {
  private readonly ready: string[] = [];
  private counter = 0;
  private refilling: Promise<void> | null = null;

  /** `env`: the scrubbed environment (a `mkfifo` is a program like any other: no keys for it). */
  constructor(
    private readonly dir: string,
    private readonly env: Readonly<Record<string, string>> = {},
  ) {}

  /** A fifo if one is ready (the usual case), without waiting. */
  takeNow(): string | undefined {
    const path = this.ready.pop();
    // Start the next batch while this one still lasts, so commands rarely wait for it.
    if (this.ready.length < BATCH / 4) this.refill().catch(() => {});
    return path;
  }

  async take(): Promise<string> {
    for (;;) {
      const path = this.takeNow();
      if (path) return path;
      await this.refill();
    }
  }

  /** Resolves when no batch is being made (so the directory can be removed). */
  async settled(): Promise<void> {
    await this.refilling?.catch(() => {});
  }

  private refill(): Promise<void> {
    this.refilling ??= this.make().finally(() => (this.refilling = null));
    return this.refilling;
  }

  private async make(): Promise<void> {
    const paths = Array.from({ length: BATCH }, () => join(this.dir, `out-${++this.counter}`));
    const mkfifo = trustedBinary("mkfifo");
    if (!mkfifo) throw new Error("mkfifo not found on the trusted PATH");
    const proc = runtime.spawn([mkfifo, "-m", "600", ...paths], {
      env: { ...this.env },
      stdout: "ignore",
      stderr: "pipe",
    });
    const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    if (code !== 0) throw new Error(`mkfifo failed: ${err.trim() || `exit ${code}`}`);
    this.ready.push(...paths);
  }
}
