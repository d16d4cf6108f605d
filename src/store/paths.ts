// Where sessions live under SYNAPSE_HOME, and how their ids look: `YYYYMMDD-HHMMSS-xxxxxx` (UTC
// time, then random hex), so ids sort by creation time and never collide in practice.

import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { storeError } from "./errors.ts";

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function sessionsRoot(home: string): string {
  return join(home, "sessions");
}

export function newSessionId(now = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const date = `${p(now.getUTCFullYear(), 4)}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}`;
  const time = `${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  return `${date}-${time}-${randomHex(3)}`;
}

/** Ids come from the command line: anything that could name another path is not an id. */
export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id) && id.length <= 128;
}

/** Creates a folder (and its parents) readable by the owner only. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
  } catch (err) {
    throw storeError("create folder", dir, err);
  }
}

/** Random hex digits from Web Crypto (node:crypto costs ~5 ms to load in a compiled binary). */
export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}
