// Which standard streams are terminals, found cheaply: node:tty (and process.stdout, which loads
// it) costs ~8 ms at startup in a compiled binary, a readlink of /proc/self/fd/N almost nothing.

import { readlinkSync } from "node:fs";

const TERMINAL_DEVICE = /^\/dev\/(pts\/\d+|tty\w*|console)$/;

export function isTerminal(fd: number): boolean {
  try {
    return TERMINAL_DEVICE.test(readlinkSync(`/proc/self/fd/${fd}`));
  } catch {
    // No /proc (macOS, BSD; or Deno without --allow-all): ask the tty module after all.
    return process.getBuiltinModule("node:tty").isatty(fd);
  }
}

export interface TerminalFacts {
  inIsTTY: boolean;
  outIsTTY: boolean;
  errIsTTY: boolean;
}

let facts: TerminalFacts | undefined;
export function terminalFacts(): TerminalFacts {
  facts ??= { inIsTTY: isTerminal(0), outIsTTY: isTerminal(1), errIsTTY: isTerminal(2) };
  return facts;
}
