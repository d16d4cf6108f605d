// Whole-text writes to stdout and stderr for the subcommands (sessions, doctor, compact), flushed
// before the caller exits.

import { runtime } from "../../runtime/runtime.ts";
import { outputFailure, readerWentAway } from "./write-failure.ts";

// Written and flushed before the caller exits: a report larger than a pipe's buffer, read slowly,
// must arrive whole. A reader that went away (EPIPE) is not an error of the compaction; any other
// failure (a full disk) is one line and exit 1.
export async function printOut(text: string): Promise<void> {
  try {
    runtime.stdout.write(text);
    await runtime.stdout.flush();
  } catch (err) {
    if (!readerWentAway(err)) throw outputFailure(err);
  }
}

export async function printErr(text: string): Promise<void> {
  try {
    runtime.stderr.write(text);
    await runtime.stderr.flush();
  } catch {
    // Nowhere left to report a failing stderr.
  }
}
