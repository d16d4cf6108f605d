// The strict parsers of environment values: a bad value is a usage error naming the variable and
// what it accepts, never a silent fallback (a typo in SYNAPSE_COMMAND_TIMEOUT_MS must not mean 0).

import { UsageError } from "../protocol/errors.ts";
import type { Env, PriceOverride } from "./config-types.ts";

const DIGITS = /^\d+$/;
const DOLLARS = /^\d+(\.\d+)?$/;

export function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  // Digits only: Number() would also take "1e9", "0x10" and " 7 ".
  const n = DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${name} must be a whole number ${range} (got "${raw}")`);
  }
  return n;
}

export function percent(env: Env, name: string, fallback: number): number {
  const n = int(env, name, fallback, 1);
  if (n > 100) throw new UsageError(`${name} must be a percentage from 1 to 100 (got "${env[name]}")`);
  return n;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "on", "yes"].includes(raw)) return true;
  if (["0", "false", "off", "no"].includes(raw)) return false;
  throw new UsageError(`${name} must be 1 or 0 (got "${env[name]}")`);
}

/** `raw` when it is one of `allowed`; else a usage error naming `source` and the choices. */
export function oneOf<T extends string>(source: string, raw: string, allowed: readonly T[]): T {
  const found = allowed.find((value) => value === raw);
  if (found === undefined) throw new UsageError(`${source} must be one of ${allowed.join(", ")} (got "${raw}")`);
  return found;
}

/** A number of dollars ("12", "0.5"): digits and one point, nothing else; NaN otherwise. */
export function dollars(text: string): number {
  return DOLLARS.test(text) ? Number(text) : Number.NaN;
}

/** SYNAPSE_PRICE: "input,output[,cacheWrite,cacheRead]" in dollars per million tokens. */
export function parsePrice(text: string): PriceOverride | undefined {
  const parts = text.split(",").map((s) => dollars(s.trim()));
  if (parts.some((x) => !Number.isFinite(x))) return undefined;
  const [input, output, cacheWrite, cacheRead] = parts;
  if (input === undefined || output === undefined) return undefined;
  if (parts.length === 2) return { input, output };
  if (parts.length === 4 && cacheWrite !== undefined && cacheRead !== undefined)
    return { input, output, cacheWrite, cacheRead };
  return undefined;
}
