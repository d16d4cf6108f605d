// The zod check of tool input against the hand-written validator it replaced, on random inputs for
// every tool: the same calls pass, and a refused call gets the same problems named.
import { expect, test } from "bun:test";
import { checkToolInput } from "../../src/tools/input-schema.ts";
import { TOOL_CODE } from "../../src/tools/tool-code.ts";
import type { JsonSchema } from "../../src/protocol/json-schema.ts";
import { validateInput } from "./legacy-validate.ts";

// A seeded generator, so a failure can be replayed.
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const STRINGS = ["", "a", "files_with_matches", "content", "count", "x".repeat(60), "é😀".repeat(30), "5", "true"];

function randomValue(next: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  switch (Math.floor(next() * (depth > 1 ? 7 : 9))) {
    case 0:
      return pick(STRINGS);
    case 1:
      return Math.floor(next() * 2000) - 1000;
    case 2:
      return pick([0.5, -1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53 - 1]);
    case 3:
      return next() < 0.5;
    case 4:
      return null;
    case 5:
      return undefined;
    case 6:
      return pick(STRINGS);
    case 7:
      return Array.from({ length: Math.floor(next() * 3) }, () => randomValue(next, depth + 1));
    default:
      return { k: randomValue(next, depth + 1) };
  }
}

type Props = JsonSchema["properties"];

/** A value of the type a parameter declares. */
function rightValue(next: () => number, prop: Props[string]): unknown {
  if (prop.enum) return prop.enum[Math.floor(next() * prop.enum.length)];
  if (prop.type === "integer") return Math.floor(next() * 200) - 20;
  if (prop.type === "boolean") return next() < 0.5;
  return STRINGS[Math.floor(next() * STRINGS.length)];
}

/** An input near the tool's schema: its own parameters, mostly of the right type, sometimes not. */
function randomInput(next: () => number, props: Props, required: string[]): unknown {
  if (next() < 0.03) return randomValue(next, 2);
  const input: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(props)) {
    if (next() < (required.includes(name) ? 0.97 : 0.5))
      input[name] = next() < 0.97 ? rightValue(next, prop) : randomValue(next);
  }
  if (next() < 0.05) input[`extra${Math.floor(next() * 3)}`] = randomValue(next);
  return input;
}

// A non-string for an enum parameter: the old validator said "must be a string", the new one lists
// the values (more use to the model); both name the field and what came.
const sameEnum = (phrase: string) =>
  phrase.replace(/^("output_mode") must be (a string|one of .*?), got /, "$1 is not a value it takes, got ");
const problems = (message: string | null) =>
  message === null
    ? null
    : message
        .replace(/\. Parameters: .*$/, "")
        .replace(/\.$/, "")
        .split("; ")
        .map(sameEnum)
        .sort();

test("on 20,000 random inputs the zod check agrees with the validator it replaced", () => {
  const next = rng(22);
  let refused = 0;
  for (let i = 0; i < 20_000; i++) {
    const tool = TOOL_CODE[i % TOOL_CODE.length]!;
    const input = randomInput(next, tool.inputSchema.properties, tool.inputSchema.required ?? []);
    const before = validateInput(tool.inputSchema, input);
    const result = checkToolInput(tool.input, input);
    const after = result.ok ? null : result.message;
    if (after !== null) refused++;
    // One wording was improved on purpose: the old validator said "got undefined undefined".
    const legacy = before?.replace("got undefined undefined", "got nothing") ?? null;
    expect({ input, problems: problems(after) }).toEqual({ input, problems: problems(legacy) });
  }
  // Both ways were exercised.
  expect(refused).toBeGreaterThan(2000);
  expect(refused).toBeLessThan(18_000);
});

test("the one intended difference: an integer past 2^53 (not exact in JSON numbers) is refused", () => {
  const grep = TOOL_CODE.find((t) => t.name === "Grep")!;
  expect(validateInput(grep.inputSchema, { pattern: "x", head_limit: 1e21 })).toBeNull();
  expect(checkToolInput(grep.input, { pattern: "x", head_limit: 1e21 })).toMatchObject({ ok: false });
});
