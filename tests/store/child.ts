// Runs a fixture script in a real child `bun` process and waits for lines it prints.
import type { Subprocess } from "bun";
import { join } from "node:path";

export interface Child {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Resolves with the first stdout line matching, or rejects if the child exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  lines: string[];
}

export function spawnFixture(name: string, args: string[]): Child {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "fixtures", name), ...args], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (m: RegExpMatchArray) => void; reject: (e: Error) => void }> = [];
  const check = () => {
    for (const w of waiters.slice()) {
      for (const line of lines) {
        const m = line.match(w.pattern);
        if (m) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
          break;
        }
      }
    }
  };
  (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of proc.stdout) {
      buf += decoder.decode(chunk, { stream: true });
      const parts = buf.split("\n");
      buf = parts.pop()!;
      lines.push(...parts);
      check();
    }
    await proc.exited;
    const stderr = await new Response(proc.stderr).text();
    for (const w of waiters.splice(0))
      w.reject(
        new Error(`${name} exited (${proc.exitCode}) before ${w.pattern}: ${lines.slice(-3).join(" | ")} ${stderr}`),
      );
  })();
  return {
    proc,
    lines,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve, reject });
        check();
      });
    },
  };
}
