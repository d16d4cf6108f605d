// Tool input schemas (zod): the check's wording (table), and the JSON Schema generated for the API.
import { describe, expect, test } from "bun:test";
import * as z from "zod/mini";
import { checkToolInput, toolInput } from "../../src/tools/input-schema.ts";
import { toAnthropicParams } from "../../src/llm/anthropic-wire.ts";
import { toOpenAIParams } from "../../src/llm/openai-wire.ts";
import { TOOL_CODE } from "../../src/tools/tool-code.ts";
import { checkAnthropic, checkOpenAI } from "../support/fake-llm-validate.ts";

const schema = toolInput({
  path: z.string(),
  offset: z.optional(z.int()),
  ratio: z.optional(z.number()),
  all: z.optional(z.boolean()),
  tags: z.optional(z.array(z.string())),
  mode: z.optional(z.enum(["fast", "slow"])),
  lines: z.optional(z.int().check(z.minimum(1), z.maximum(10))),
});

const check = (input: unknown) => {
  const result = checkToolInput(schema, input);
  return result.ok ? null : result.message;
};

describe("checkToolInput", () => {
  const cases: Array<[string, unknown, string | null]> = [
    ["minimal valid", { path: "a" }, null],
    ["all fields valid", { path: "a", offset: 3, ratio: 0.5, all: true, tags: ["x"], mode: "slow", lines: 10 }, null],
    ["null optional is absent", { path: "a", offset: null }, null],
    ["not an object", "a", "expected an object"],
    ["array input", ["a"], "got an array"],
    ["null input", null, "got null"],
    ["missing required", {}, '"path" is required'],
    ["null required", { path: null }, '"path" is required'],
    ["string for integer", { path: "a", offset: "5" }, '"offset" must be an integer, got the string "5"'],
    ["fraction for integer", { path: "a", offset: 1.5 }, '"offset" must be an integer, got number 1.5'],
    ["NaN for number", { path: "a", ratio: NaN }, '"ratio" must be a number'],
    ["Infinity for number", { path: "a", ratio: Infinity }, '"ratio" must be a number'],
    ["string for boolean", { path: "a", all: "true" }, '"all" must be a boolean'],
    ["object for array", { path: "a", tags: {} }, '"tags" must be an array, got an object'],
    ["bad array item", { path: "a", tags: ["x", 2] }, '"tags[1]" must be a string'],
    [
      "value outside enum",
      { path: "a", mode: "medium" },
      '"mode" must be one of "fast", "slow", got the string "medium"',
    ],
    ["below a minimum", { path: "a", lines: 0 }, '"lines" must be at least 1, got number 0'],
    ["above a maximum", { path: "a", lines: 11 }, '"lines" must be at most 10, got number 11'],
    ["unknown key", { path: "a", file: "b" }, '"file" is not a parameter of this tool'],
    ["number for string", { path: 7 }, '"path" must be a string, got number 7'],
    ["long string cut", { path: "a", offset: "x".repeat(100) }, `got the string "${"x".repeat(40)}…"`],
  ];
  for (const [name, input, expected] of cases) {
    test(name, () => {
      const result = check(input);
      if (expected === null) expect(result).toBeNull();
      else expect(result).toContain(expected);
    });
  }

  test("reports every problem at once and lists the parameters", () => {
    const result = check({ offset: "x", all: 1 })!;
    expect(result).toContain('"path" is required');
    expect(result).toContain('"offset" must be an integer');
    expect(result).toContain('"all" must be a boolean');
    expect(result).toContain("Parameters: path, offset, ratio, all, tags, mode, lines");
  });

  test("the value a tool gets has no explicit nulls", () => {
    expect(checkToolInput(schema, { path: "a", offset: null })).toEqual({ ok: true, value: { path: "a" } });
  });
});

// The JSON Schemas the tools declared by hand before they were generated from zod: the API got
// exactly these, so generating them must not change a byte the model (or a strict API) sees.
const HAND_WRITTEN = {
  Bash: {
    type: "object",
    properties: {
      command: { type: "string", description: "The bash command to run" },
      cwd: {
        type: "string",
        description:
          "Directory to run it in (absolute, or relative to the working directory); default: the working directory",
      },
      timeout_ms: { type: "integer", description: "Time limit in milliseconds (default 120000, at most 600000)" },
    },
    required: ["command"],
    additionalProperties: false,
  },
  Read: {
    type: "object",
    properties: {
      path: { type: "string", description: "File to read, absolute or relative to the working directory" },
      offset: { type: "integer", description: "1-based line number to start at (default 1)" },
      limit: { type: "integer", description: "How many lines to read (default 2000)" },
    },
    required: ["path"],
    additionalProperties: false,
  },
  Write: {
    type: "object",
    properties: {
      path: { type: "string", description: "File to write, absolute or relative to the working directory" },
      content: { type: "string", description: "The complete new content of the file" },
    },
    required: ["path", "content"],
    additionalProperties: false,
  },
  Edit: {
    type: "object",
    properties: {
      path: { type: "string", description: "File to edit, absolute or relative to the working directory" },
      old_string: { type: "string", description: "Exact text to replace (empty to create a new file)" },
      new_string: { type: "string", description: "Text to put in its place" },
      replace_all: { type: "boolean", description: "Replace every occurrence instead of requiring exactly one" },
    },
    required: ["path", "old_string", "new_string"],
    additionalProperties: false,
  },
  Glob: {
    type: "object",
    properties: {
      pattern: { type: "string", description: 'Glob pattern, e.g. "**/*.ts" or "src/**/*.{js,jsx}"' },
      path: { type: "string", description: "Directory to search in (default: the working directory)" },
    },
    required: ["pattern"],
    additionalProperties: false,
  },
  Grep: {
    type: "object",
    properties: {
      pattern: { type: "string", description: "Regular expression to search for (Rust regex syntax, as in ripgrep)" },
      path: { type: "string", description: "File or directory to search (default: the working directory)" },
      glob: { type: "string", description: 'Only search files matching this glob, e.g. "*.ts" or "src/**/*.{js,jsx}"' },
      type: { type: "string", description: 'Only search files of this ripgrep type, e.g. "ts", "py", "rust", "go"' },
      output_mode: {
        type: "string",
        enum: ["files_with_matches", "content", "count"],
        description:
          "files_with_matches (default): matching file paths; content: matching lines; count: matching lines per file",
      },
      "-A": { type: "integer", description: "Lines to show after each match (content mode)" },
      "-B": { type: "integer", description: "Lines to show before each match (content mode)" },
      "-C": { type: "integer", description: "Lines to show before and after each match (content mode)" },
      "-i": { type: "boolean", description: "Match case-insensitively (same as ignore_case)" },
      ignore_case: { type: "boolean", description: "Match case-insensitively" },
      multiline: { type: "boolean", description: "Let the pattern span lines; . also matches newlines" },
      head_limit: {
        type: "integer",
        description: "Return at most this many lines (content) or files (default 200, at most 1000)",
      },
    },
    required: ["pattern"],
    additionalProperties: false,
  },
};

describe("generated JSON Schema", () => {
  test("is the hand-written schema each tool had, key for key", () => {
    expect(Object.fromEntries(TOOL_CODE.map((t) => [t.name, t.inputSchema])) as unknown).toEqual(HAND_WRITTEN);
    for (const t of TOOL_CODE)
      expect(JSON.stringify(t.inputSchema)).toBe(JSON.stringify(HAND_WRITTEN[t.name as keyof typeof HAND_WRITTEN]));
  });

  test("every parameter of the schema is one of the JSON Schema and the other way round", () => {
    for (const t of TOOL_CODE) expect(Object.keys(t.inputSchema.properties)).toEqual(Object.keys(t.input.shape));
  });

  test("the strict fake API accepts every tool as each provider's wire sends it, and refuses a broken schema", async () => {
    const request = (tools: Array<{ name: string; description: string; input_schema: any }>) => ({
      messages: [{ id: "m", role: "user" as const, content: [{ type: "text" as const, text: "go" }], ts: 1 }],
      tools,
      system: "s",
      maxTokens: 100,
      loadImage: async () => ({ mediaType: "image/png", base64: "" }),
    });
    const specs = TOOL_CODE.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
    expect(checkAnthropic(await toAnthropicParams(request(specs) as never, "m"))).toBeUndefined();
    expect(checkOpenAI(await toOpenAIParams(request(specs) as never, "m"))).toBeUndefined();
    const broken = [
      { name: "T", description: "", input_schema: { type: "object", properties: { n: { type: "int" } } } },
    ];
    expect(checkAnthropic(await toAnthropicParams(request(broken) as never, "m"))?.message).toContain(
      "JSON schema is invalid",
    );
    expect(checkOpenAI(await toOpenAIParams(request(broken) as never, "m"))?.message).toContain(
      "Invalid schema for function 'T'",
    );
  });

  test("a valid call by the JSON Schema passes the zod check", () => {
    expect(
      checkToolInput(TOOL_CODE.find((t) => t.name === "Grep")!.input, { pattern: "x", output_mode: "count", "-C": 2 })
        .ok,
    ).toBe(true);
  });
});
