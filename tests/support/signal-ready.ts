// Waits until a child process has installed its handler for a signal, so a test can send the
// signal at a known point of the child's start-up instead of after a guessed sleep.

import { readFileSync } from "node:fs";
import { constants } from "node:os";

/** Whether `pid` catches `signal` now (the SigCgt mask in /proc/<pid>/status, Linux). */
export function catchesSignal(pid: number, signal: keyof typeof constants.signals): boolean {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "latin1");
  } catch {
    return false; // gone, or not started yet
  }
  const mask = status.match(/^SigCgt:\s*([0-9a-f]+)$/m)?.[1];
  return mask !== undefined && ((BigInt(`0x${mask}`) >> BigInt(constants.signals[signal] - 1)) & 1n) === 1n;
}

/**
 * Resolves once `pid` catches `signal`. No event announces that from another process, so this
 * polls; the deadline only bounds a failing test.
 */
export async function untilCatching(
  pid: number,
  signal: keyof typeof constants.signals,
  deadlineMs = 30_000,
): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!catchesSignal(pid, signal)) {
    if (Date.now() > end) throw new Error(`process ${pid} did not trap ${signal} within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
