// One archive line read back as a message: damaged or foreign lines are reported and skipped, and
// blocks this build cannot use are dropped (protocol/message-schema.ts), so a crash mid-write, an
// outside edit or a newer version's line costs a line or a block, not the session.

import type { Message } from "../protocol/message.ts";
import { checkMessage } from "../protocol/message-schema.ts";
import type { Line } from "./line-reader.ts";

/** Parses one archive line; damaged lines are reported and give undefined. */
export function parseLine(line: Line, path: string, warn: (message: string) => void): Message | undefined {
  if (line.text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (err) {
    const what = line.terminated ? "corrupt" : "torn last";
    const why = line.terminated ? `: ${(err as Error).message}` : " (unfinished write)";
    warn(`skipped ${what} line ${line.no} of ${path}${why}`);
    return undefined;
  }
  // Block by block: one block this build cannot use (a newer version's, a hand edit) costs that
  // block, with one warning for the line, never the resume.
  const { message, problems } = checkMessage(value);
  if (!message) warn(`skipped line ${line.no} of ${path}: ${problems.join("; ")}`);
  else if (problems.length) warn(`line ${line.no} of ${path}: ${problems.join("; ")}`);
  return message;
}
