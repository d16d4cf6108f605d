// The schema check of config.json files against the hand-written one it replaced, on random files:
// the same files pass, and a refused file gets the same sentence.
import { expect, test } from "bun:test";
import { checkFileConfig } from "../../src/config/file-config.ts";
import { checkFileConfig as legacyCheck } from "./legacy-file-config.ts";

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const VALUES: unknown[] = [
  0,
  1,
  2,
  -1,
  2.5,
  1_000_000,
  1_000_001,
  Number.NaN,
  "",
  " ",
  "abc",
  "5",
  "plan",
  "yolo",
  "default",
  "read-only",
  "workspace-write",
  "full-access",
  true,
  false,
  null,
  [],
  ["Bash"],
  ["Bash", 3],
  {},
  { allow: ["Read"] },
  0.3,
  15,
];
const KEYS: Record<string, string[]> = {
  permissions: ["allow", "deny", "ask"],
  sandbox: ["mode", "network", "net"],
  price: ["input", "output", "cacheWrite", "cacheRead", "total"],
};
const TOP = [
  "maxTurns",
  "maxTokens",
  "maxRetries",
  "loopLimit",
  "model",
  "permissionMode",
  "autoCondense",
  "mcpServers",
  ...Object.keys(KEYS),
];

// Values each key takes, so that most files are near valid.
const GOOD: Record<string, unknown[]> = {
  maxTurns: [1, 5],
  maxTokens: [1, 1_000_000],
  maxRetries: [0, 3],
  loopLimit: [0, 5],
  model: ["openai/gpt-5.4"],
  permissionMode: ["plan", "default"],
  autoCondense: [true],
  allow: [["Read"]],
  deny: [[]],
  mode: ["read-only"],
  network: [false],
  input: [3],
  output: [15],
  cacheWrite: [3.75],
  cacheRead: [0.3],
  mcpServers: [{ fs: { command: "x" } }],
};

function randomFile(next: () => number): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const value = (key: string) => (GOOD[key] && next() < 0.85 ? pick(GOOD[key]!) : pick(VALUES));
  if (next() < 0.03) return pick([null, [], "x", 3]);
  const file: Record<string, unknown> = {};
  if (next() < 0.03) file.maxturns = 3;
  for (let n = Math.floor(next() * 3); n >= 0; n--) {
    const key = pick(TOP);
    if (KEYS[key] && next() < 0.8) {
      const section: Record<string, unknown> = {};
      for (let m = Math.floor(next() * 3); m >= 0; m--) {
        const inner = next() < 0.9 ? pick(KEYS[key]!.slice(0, -1)) : KEYS[key]!.at(-1)!;
        section[inner] = value(inner);
      }
      file[key] = section;
    } else {
      file[key] = value(key);
    }
  }
  return file;
}

const outcome = (check: (v: unknown) => unknown, value: unknown) => {
  try {
    check(value);
    return "ok";
  } catch (err) {
    return (err as Error).message;
  }
};

test("on 20,000 random config files the schema check agrees with the check it replaced", () => {
  const next = rng(17);
  let refused = 0;
  for (let i = 0; i < 20_000; i++) {
    const file = randomFile(next);
    const after = outcome(checkFileConfig, file);
    if (after !== "ok") refused++;
    expect({ file, after }).toEqual({ file, after: outcome(legacyCheck, file) });
  }
  expect(refused).toBeGreaterThan(2000);
  expect(refused).toBeLessThan(18_000);
});
