// Structured output's pure parts and its validation loop over a real ajv-compiled schema
// (issue 21 §5); the whole path through the binary is in tests/e2e/json-schema.test.ts.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { badPatternAt, compileJsonSchema, dialectOf } from "../../src/agent/json-schema-check.ts";
import {
  MAX_STRUCTURED_RETRIES,
  answerJudge,
  asciiJson,
  loadStructuredOutput,
  parseAnswer,
  structuredOutputPrompt,
} from "../../src/agent/structured-output.ts";
import { outputSchemaSource } from "../../src/config/output-schema-source.ts";
import { UsageError } from "../../src/protocol/errors.ts";

const PERSON = {
  type: "object",
  properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } },
  required: ["name", "age"],
  additionalProperties: false,
};

describe("parseAnswer", () => {
  const cases: Array<[string, string, unknown]> = [
    ["bare JSON", '{"a":1}', { a: 1 }],
    ["surrounding white space", '\n  {"a":1}\n\n', { a: 1 }],
    ["a scalar", "42", 42],
    ["a ```json fence", '```json\n{"a":1}\n```', { a: 1 }],
    ["a bare ``` fence", "```\n[1,2]\n```", [1, 2]],
    ["a fence with prose around it", 'Here it is:\n```json\n{"a":1}\n```\nDone.', { a: 1 }],
    ["CRLF line ends", '```json\r\n{"a":1}\r\n```', { a: 1 }],
  ];
  for (const [name, text, value] of cases) {
    test(`accepts ${name}`, () => expect(parseAnswer(text)).toEqual({ ok: true, value }));
  }

  const refused: Array<[string, string, string]> = [
    ["an empty answer", "  \n", "empty"],
    ["prose", "The answer is 42.", "not valid JSON"],
    ["two fenced blocks", "```json\n{}\n```\nor\n```json\n[]\n```", "2 code blocks"],
    ["a fence that holds no JSON", "```json\n{a: 1}\n```", "code block is not valid JSON"],
  ];
  for (const [name, text, says] of refused) {
    test(`refuses ${name}`, () => {
      const parsed = parseAnswer(text);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toContain(says);
    });
  }
});

describe("badPatternAt: where a regular expression of a schema is broken", () => {
  const cases: [string, unknown, string | undefined][] = [
    ["a pattern", { properties: { id: { pattern: "(" } } }, "/properties/id/pattern: not a valid regular expression"],
    ["a patternProperties key", { patternProperties: { "[a-": {} } }, '/patternProperties: "[a-" is not a valid'],
    ["in an array", { anyOf: [{}, { pattern: "*" }] }, "/anyOf/1/pattern: not a valid regular expression"],
    ["a key with / in it", { properties: { "a/b": { pattern: "(" } } }, "/properties/a~1b/pattern"],
    ["data, not a schema", { const: { pattern: "(" }, examples: [{ pattern: "(" }] }, undefined],
    ["a good one", { pattern: "^[a-z]+$", patternProperties: { "^x-": {} } }, undefined],
  ];
  test.each(cases)("%s", (_name, schema, says) => {
    const found = badPatternAt(schema);
    if (says === undefined) expect(found).toBeUndefined();
    else expect(found).toStartWith(says);
  });
});

describe("compileJsonSchema", () => {
  test("names what is wrong in a schema that is not a JSON Schema", async () => {
    await expect(compileJsonSchema({ type: "strin" })).rejects.toThrow(/\/type/);
    await expect(compileJsonSchema([])).rejects.toThrow("must be a JSON object");
    await expect(compileJsonSchema({ required: "name" })).rejects.toThrow(/\/required: must be array/);
  });

  test("a $ref the schema does not hold is refused, never fetched", async () => {
    await expect(compileJsonSchema({ $ref: "http://127.0.0.1:9/schema.json" })).rejects.toThrow(/resolve reference/);
  });

  test("speaks draft-07 (the default), 2019-09 and 2020-12; refuses other dialects", async () => {
    const table: Array<[unknown, ReturnType<typeof dialectOf>]> = [
      [undefined, "draft-07"],
      ["http://json-schema.org/draft-07/schema#", "draft-07"],
      ["https://json-schema.org/draft/2019-09/schema", "2019-09"],
      ["https://json-schema.org/draft/2020-12/schema", "2020-12"],
    ];
    for (const [uri, dialect] of table) expect(dialectOf(uri === undefined ? {} : { $schema: uri })).toBe(dialect);
    expect(() => dialectOf({ $schema: "http://json-schema.org/draft-04/schema#" })).toThrow("draft-04");
    const tuple = await compileJsonSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "string" }],
      items: false,
    });
    expect(tuple.check(["a"])).toEqual([]);
    expect(tuple.check(["a", 1])[0]).toContain("at the top level");
  });

  test("lists each error with where it is, and the names ajv keeps", async () => {
    const person = await compileJsonSchema(PERSON);
    expect(person.check({ name: "Ada", age: 36 })).toEqual([]);
    expect(person.check({ name: 1, age: -1, extra: true })).toEqual([
      'at the top level: must NOT have additional properties ("extra")',
      "at /name: must be string",
      "at /age: must be >= 0",
    ]);
    const colour = await compileJsonSchema({ enum: ["red", "green"] });
    expect(colour.check("blue")).toEqual([
      'at the top level: must be equal to one of the allowed values (["red","green"])',
    ]);
  });

  test("formats are checked (ajv-formats), unknown keywords ignored", async () => {
    const when = await compileJsonSchema({ type: "string", format: "date", "x-vendor": 1 });
    expect(when.check("2026-11-28")).toEqual([]);
    expect(when.check("yesterday")).toHaveLength(1);
  });

  test("a frozen schema (the config is frozen) compiles", async () => {
    const frozen = Object.freeze({ ...PERSON, properties: Object.freeze({ ...PERSON.properties }) });
    expect((await compileJsonSchema(frozen)).check({ name: "x", age: 1 })).toEqual([]);
  });
});

describe("answerJudge", () => {
  test("valid at once: the value", async () => {
    const judge = answerJudge(await compileJsonSchema(PERSON), 3);
    expect(judge.verdict('```json\n{"name":"Ada","age":36}\n```')).toEqual({
      kind: "valid",
      value: { name: "Ada", age: 36 },
    });
  });

  test("sends an invalid answer back with its errors, then gives up after maxRetries", async () => {
    const judge = answerJudge(await compileJsonSchema(PERSON), 2);
    const first = judge.verdict('{"name":"Ada"}');
    expect(first.kind).toBe("retry");
    if (first.kind === "retry") {
      expect(first.feedback).toContain("- at the top level: must have required property 'age'");
      expect(first.feedback).toContain("attempt 2 of 3");
    }
    const second = judge.verdict("not json");
    expect(second.kind).toBe("retry");
    if (second.kind === "retry") expect(second.feedback).toContain("not valid JSON");
    const third = judge.verdict('{"name":"Ada"}');
    expect(third.kind).toBe("exhausted");
    if (third.kind === "exhausted") expect(third.reason).toContain("after 3 attempts");
  });

  test("a valid answer after retries is still valid", async () => {
    const judge = answerJudge(await compileJsonSchema(PERSON), 1);
    expect(judge.verdict("{}").kind).toBe("retry");
    expect(judge.verdict('{"name":"A","age":1}').kind).toBe("valid");
  });
});

describe("loadStructuredOutput", () => {
  test("tells the model the schema in ASCII, in a suffix that is the same for every run", async () => {
    const schema = { type: "object", properties: { città: { type: "string", description: "naïve – ok" } } };
    const loaded = await loadStructuredOutput({ origin: "outputFormat", schema });
    expect(loaded.promptSuffix).toBe(structuredOutputPrompt(schema));
    expect(loaded.promptSuffix).toMatch(/^[\x00-\x7f]*$/);
    expect(JSON.parse(asciiJson(schema))).toEqual(schema);
    expect(loaded.judge().verdict("{}").kind).toBe("valid");
    expect(MAX_STRUCTURED_RETRIES).toBe(3);
  });

  const bad: Array<[string, Parameters<typeof loadStructuredOutput>[0], string]> = [
    [
      "JSON that does not parse",
      { origin: "--json-schema", text: "{type: object}" },
      "--json-schema is not valid JSON",
    ],
    [
      "a schema that is no JSON Schema",
      { origin: "--json-schema", text: '{"type":"strin"}' },
      "--json-schema is not a valid JSON Schema",
    ],
    ["a missing file", { origin: "--output-schema", path: "/nonexistent/schema.json" }, "--output-schema: cannot read"],
    ["a folder", { origin: "--output-schema", path: tmpdir() }, "not a regular file"],
  ];
  for (const [name, source, says] of bad) {
    test(`refuses ${name} with a UsageError of one line`, async () => {
      const err = await loadStructuredOutput(source).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toContain(says);
      expect((err as Error).message).not.toContain("\n");
    });
  }

  test("reads an --output-schema file named relative to where synapse started", async () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-schema-"));
    writeFileSync(join(dir, "s.json"), JSON.stringify(PERSON));
    const source = outputSchemaSource({ outputSchema: "s.json" }, dir);
    expect(source).toEqual({ origin: "--output-schema", path: join(dir, "s.json") });
    const loaded = await loadStructuredOutput(source!);
    expect(loaded.judge().verdict('{"name":"x","age":2}').kind).toBe("valid");
  });
});

describe("outputSchemaSource", () => {
  test("one flag or the other, never both, never empty", () => {
    expect(outputSchemaSource({}, "/")).toBeUndefined();
    expect(outputSchemaSource({ jsonSchema: "{}" }, "/")).toEqual({ origin: "--json-schema", text: "{}" });
    expect(() => outputSchemaSource({ jsonSchema: "{}", outputSchema: "a" }, "/")).toThrow("cannot be used together");
    expect(() => outputSchemaSource({ jsonSchema: " " }, "/")).toThrow(UsageError);
    expect(() => outputSchemaSource({ outputSchema: "" }, "/")).toThrow(UsageError);
  });
});

describe("start-up without the flags", () => {
  const SRC = resolve(import.meta.dir, "../../src");
  /** Every module reachable from `entry` through static imports (type-only imports left out). */
  const staticGraph = (entry: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(entry)) return seen;
    seen.add(entry);
    const text = readFileSync(entry, "utf8");
    for (const m of text.matchAll(/^import\s+(?!type\s)(?:[^'"]*?\s+from\s+)?["'](\.[^"']+)["']/gm)) {
      staticGraph(resolve(dirname(entry), m[1] ?? ""), seen);
    }
    return seen;
  };

  test("the headless run reaches the schema modules (and ajv) only through import()", () => {
    const reached = [...staticGraph(resolve(SRC, "cli/main.ts")), ...staticGraph(resolve(SRC, "cli/headless.ts"))];
    const names = reached.map((f) => relative(SRC, f));
    // The module that loads them on demand is reached: the walk is not vacuous.
    expect(names).toContain("executor/session-parts.ts");
    expect(names.filter((f) => /^agent\/(structured-output|json-schema-check)\.ts$/.test(f))).toEqual([]);
    const check = readFileSync(resolve(SRC, "agent/json-schema-check.ts"), "utf8");
    expect(check).not.toMatch(/^import\s+(?!type\s).*["']ajv/m);
  });
});
