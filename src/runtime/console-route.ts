// Libraries write to the console on their own: the Anthropic SDK console.warn()s a deprecation
// notice on every request for a retiring model. Where the process (or thread) draws a screen or
// speaks a protocol, such a write lands in the middle of it. This routes console output to `show`
// instead: each distinct message once (a bounded memory of them), until the returned undo is called.

import type * as NodeUtil from "node:util";

const METHODS = ["log", "info", "warn", "error", "debug"] as const;
/** Distinct messages remembered for the once-only rule; past it, memory is reset (bounded). */
const MAX_SEEN = 200;

export function routeConsole(show: (text: string) => void): () => void {
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
      show(text);
    };
  }
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    for (const [m, write] of saved) console[m] = write;
  };
}
