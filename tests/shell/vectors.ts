// Loads Roo-Code's acceptance vectors (kept outside the repo, next to it) for the shell tests.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { peerVectorPath, skipForMissingVectors } from "../support/peer-vectors.ts";

export const VECTORS_DIR = peerVectorPath("roo-code");
export const haveVectors = existsSync(VECTORS_DIR);

export interface Vector {
  name: string;
  input?: any;
  input_is_undefined?: boolean;
  expected?: any;
  expected_is_undefined?: boolean;
  args?: Record<string, any>;
  property?: string;
  value?: any;
  variant?: string;
}

/** The vectors of `file`; without the vectors folder, none, and one skipped test named after the file. */
export function loadVectors(file: string): Vector[] {
  if (!haveVectors) {
    skipForMissingVectors(`Roo-Code vectors ${file}`, "roo-code");
    return [];
  }
  return JSON.parse(readFileSync(join(VECTORS_DIR, file), "utf8"));
}

/** In the vector files `null` stands for JS undefined. */
export const undef = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

export function inputOf(v: Vector): any {
  return v.input_is_undefined ? undefined : v.input;
}

export function expectedOf(v: Vector): any {
  return v.expected_is_undefined ? undefined : v.expected;
}

/** Test names must be unique per file; vectors repeat names across upstream test files. */
export function label(v: Vector, i: number): string {
  return `${i + 1}. ${v.name}`;
}
