// One archive line read back as a message: damaged or foreign lines are reported and skipped, so a
// crash mid-write or an outside edit costs a line, not the session.

import type { Message } from "../protocol/message.ts";
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
  if (!isMessage(value)) {
    warn(`skipped line ${line.no} of ${path}: not a message`);
    return undefined;
  }
  return value;
}

function isMessage(value: unknown): value is Message {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<Message>;
  return typeof v.id === "string" && (v.role === "user" || v.role === "assistant") && Array.isArray(v.content);
}
