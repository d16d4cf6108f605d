// Tool input validation against the schema subset (table).
import { describe, expect, test } from "bun:test";
import { validateInput } from "../../src/tools/schema.ts";
import type { JsonSchema } from "../../src/tools/types.ts";

const schema: JsonSchema = {
  type: "object",
  properties: {
    path: { type: "string" },
    offset: { type: "integer" },
    ratio: { type: "number" },
    all: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    mode: { type: "string", enum: ["fast", "slow"] },
  },
  required: ["path"],
  additionalProperties: false,
};

const open: JsonSchema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };

describe("validateInput", () => {
  const cases: Array<[string, JsonSchema, unknown, string | null]> = [
    ["minimal valid", schema, { path: "a" }, null],
    ["all fields valid", schema, { path: "a", offset: 3, ratio: 0.5, all: true, tags: ["x"], mode: "slow" }, null],
    ["null optional is absent", schema, { path: "a", offset: null }, null],
    ["not an object", schema, "a", "expected an object"],
    ["array input", schema, ["a"], "got an array"],
    ["null input", schema, null, "got null"],
    ["missing required", schema, {}, '"path" is required'],
    ["null required", schema, { path: null }, '"path" is required'],
    ["string for integer", schema, { path: "a", offset: "5" }, '"offset" must be an integer, got the string "5"'],
    ["fraction for integer", schema, { path: "a", offset: 1.5 }, '"offset" must be an integer, got number 1.5'],
    ["NaN for number", schema, { path: "a", ratio: NaN }, '"ratio" must be a number'],
    ["string for boolean", schema, { path: "a", all: "true" }, '"all" must be a boolean'],
    ["object for array", schema, { path: "a", tags: {} }, '"tags" must be an array, got an object'],
    ["bad array item", schema, { path: "a", tags: ["x", 2] }, '"tags[1]" must be a string'],
    ["value outside enum", schema, { path: "a", mode: "medium" }, '"mode" must be one of "fast", "slow"'],
    ["unknown key when closed", schema, { path: "a", file: "b" }, '"file" is not a parameter'],
    ["unknown key when open", open, { path: "a", file: "b" }, null],
    ["number for string", open, { path: 7 }, '"path" must be a string, got number 7'],
  ];
  for (const [name, s, input, expected] of cases) {
    test(name, () => {
      const result = validateInput(s, input);
      if (expected === null) expect(result).toBeNull();
      else expect(result).toContain(expected);
    });
  }

  test("reports every problem at once and lists the parameters", () => {
    const result = validateInput(schema, { offset: "x", all: 1 })!;
    expect(result).toContain('"path" is required');
    expect(result).toContain('"offset" must be an integer');
    expect(result).toContain('"all" must be a boolean');
    expect(result).toContain("Parameters: path, offset, ratio, all, tags, mode");
  });
});
