// stdout and stderr as the writers use them. The runtime's sinks (Bun's file sinks in the
// binary), not process.stdout/stderr:
// creating those costs ~8 ms at startup in a compiled binary, and a sink reports a reader that has
// gone away (EPIPE) through its flush.

import type { OutputStreams } from "./types.ts";
import { runtime } from "../../runtime/runtime.ts";

/** `onOutputError` hears once of the first failed stdout write (EPIPE: the reader went away). */
export function createOutputStreams(
  facts: { outIsTTY: boolean; errIsTTY: boolean },
  onOutputError: (err: NodeJS.ErrnoException) => void,
): OutputStreams & { flush(): Promise<void> } {
  const out = runtime.stdout;
  const err = runtime.stderr;
  let outOpen = true;
  const brokenPipe = (e: NodeJS.ErrnoException) => {
    if (!outOpen) return;
    outOpen = false;
    onOutputError(e ?? new Error("write failed"));
  };
  return {
    outIsTTY: facts.outIsTTY,
    errIsTTY: facts.errIsTTY,
    out(text) {
      if (!outOpen) return;
      try {
        out.write(text);
        // Flushing each write keeps streamed text live on a terminal and surfaces EPIPE early.
        Promise.resolve(out.flush()).catch(brokenPipe);
      } catch (e) {
        brokenPipe(e as NodeJS.ErrnoException);
      }
    },
    err(text) {
      try {
        err.write(text);
        Promise.resolve(err.flush()).catch(() => {});
      } catch {
        // Nowhere left to report a failing stderr.
      }
    },
    async flush() {
      await Promise.allSettled([outOpen ? out.flush() : undefined, err.flush()]);
    },
  };
}
