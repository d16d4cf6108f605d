// Libraries write to the console on their own: the Anthropic SDK console.warn()s a deprecation
// notice on every request for a retiring model. On a redrawn screen such a write lands in the
// middle of the live rows and tears the prompt and status line apart (the prompt row then shows
// the warning as if typed). While the session draws, console output becomes dim lines in the
// transcript instead: each distinct message once, with no control character in it.

import type * as NodeUtil from "node:util";
import { inertLine } from "../../render/inert.ts";

const METHODS = ["log", "info", "warn", "error", "debug"] as const;
/** Distinct messages remembered for the once-only rule; past it, memory is reset (bounded). */
const MAX_SEEN = 200;

/** Routes console output to `show` (one call per new message, its lines); returns the undo. */
export function captureConsole(show: (lines: string[]) => void): () => void {
  const saved = METHODS.map((m) => [m, console[m]] as const);
  const seen = new Set<string>();
  for (const m of METHODS) {
    console[m] = (...args: unknown[]) => {
      // node:util (~5 ms to load in a compiled binary) only once a library writes to the console.
      const { format } = process.getBuiltinModule("node:util") as typeof NodeUtil;
      const text = format(...args);
      if (seen.has(text)) return;
      if (seen.size >= MAX_SEEN) seen.clear();
      seen.add(text);
      show(text.split("\n").map(inertLine));
    };
  }
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    for (const [m, write] of saved) console[m] = write;
  };
}
