// Where the peer vectors live (../shared/peer-vectors, beside the repository, not in it), and how
// suites that read them skip, visibly and by name, in a clone that has nothing beside it.

import { test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export const PEER_VECTORS_DIR = resolve(import.meta.dir, "../../../shared/peer-vectors");

/** Whether `../shared/peer-vectors/<sub>` exists; CI has it, a fresh clone does not. */
export function havePeerVectors(sub = ""): boolean {
  return existsSync(join(PEER_VECTORS_DIR, sub));
}

export function peerVectorPath(...parts: string[]): string {
  return join(PEER_VECTORS_DIR, ...parts);
}

/**
 * Registers one skipped test named after what could not be checked, so the run's report lists it
 * (a silent early return would look like a pass).
 */
export function skipForMissingVectors(what: string, sub = ""): void {
  test.skip(`${what} (skipped: ${join("../shared/peer-vectors", sub)} is absent)`, () => {});
}
