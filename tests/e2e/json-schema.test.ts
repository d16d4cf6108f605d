// Structured output through the compiled binary (issue 21 §5): --json-schema (Claude Code) and
// --output-schema (Codex) make the final answer a JSON value valid against the schema. The model
// is told the schema in the system prompt; an invalid answer goes back to it with the errors (at
// most 3 times); the value is the result's structured_output, and `-o text` prints it alone.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { BINARY, jsonLines, providerEnv, runBinary, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const serve = fakeLLMPerTest();

const PERSON = {
  type: "object",
  properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } },
  required: ["name", "age"],
  additionalProperties: false,
};
const SCHEMA = JSON.stringify(PERSON);

/** The system prompt a request carried (Anthropic: `system`; OpenAI: the first message). */
function systemOf(req: RecordedRequest): string {
  if (req.provider === "openai") return String(req.body.messages[0].content);
  const system = req.body.system;
  return typeof system === "string" ? system : system.map((b: { text: string }) => b.text).join("");
}

/** The text of a request's last message (the user's turn). */
function lastUserText(req: RecordedRequest): string {
  const last = req.body.messages.at(-1);
  expect(last.role).toBe("user");
  if (typeof last.content === "string") return last.content;
  return last.content.map((b: { text?: string }) => b.text ?? "").join("");
}

describe("--json-schema", () => {
  for (const provider of ["anthropic", "openai"] as const) {
    test(`${provider}: a valid answer is the result's structured_output, the model told the schema`, async () => {
      const server = await serve([{ text: '```json\n{"name": "Ada", "age": 36}\n```' }]);
      const r = await runBinary({
        args: ["-o", "json", "--json-schema", SCHEMA, "who wrote the first program?"],
        env: providerEnv(server.url, provider),
      });
      expect(r.code).toBe(0);
      const result = JSON.parse(r.stdout);
      expect(result).toMatchObject({
        subtype: "success",
        is_error: false,
        structured_output: { name: "Ada", age: 36 },
      });
      expect(server.requests).toHaveLength(1);
      const system = systemOf(server.requests[0]!);
      expect(system).toContain("# Structured output");
      expect(system).toContain(SCHEMA);
    });

    test(`${provider}: an invalid answer goes back with its errors, and the fixed one is the value`, async () => {
      const server = await serve([{ text: '{"name": "Ada"}' }, { text: '{"name": "Ada", "age": 36}' }]);
      const r = await runBinary({
        args: ["-o", "stream-json", "--json-schema", SCHEMA, "who?"],
        env: providerEnv(server.url, provider),
      });
      expect(r.code).toBe(0);
      expect(server.requests).toHaveLength(2);
      const feedback = lastUserText(server.requests[1]!);
      expect(feedback).toContain("does not match the required JSON schema");
      expect(feedback).toContain("must have required property 'age'");
      // The schema rides in the same system prompt bytes on every request: the prompt cache stays warm.
      expect(systemOf(server.requests[1]!)).toBe(systemOf(server.requests[0]!));
      const lines = jsonLines(r.stdout);
      const result = lines.at(-1);
      expect(result).toMatchObject({ type: "result", subtype: "success", structured_output: { name: "Ada", age: 36 } });
      expect(result.num_turns).toBe(2);
      // Programs reading the stream see the message that was sent back.
      const sentBack = lines.find((l) => l.type === "user");
      expect(JSON.stringify(sentBack)).toContain("must have required property 'age'");
    });
  }

  test("never valid: three answers sent back, then exit 1 with error_max_structured_output_retries, session saved", async () => {
    const server = await serve([
      { text: "Ada Lovelace" },
      { text: '{"name": "Ada"}' },
      { text: '{"name": "Ada", "age": "36"}' },
      { text: '{"name": 1, "age": 36}' },
      { text: "noted" },
    ]);
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(server.url) };
    const r = await runBinary({ args: ["-o", "json", "--json-schema", SCHEMA, "who?"], env, cwd: home.dir });
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ subtype: "error_max_structured_output_retries", is_error: true, num_turns: 4 });
    expect(result.structured_output).toBeUndefined();
    expect(result.result).toContain("after 4 attempts");
    expect(result.result).toContain("at /name: must be string");
    expect(r.stderr).toContain("error: the final answer did not match the JSON schema after 4 attempts");
    expect(server.requests).toHaveLength(4);
    expect(lastUserText(server.requests[3]!)).toContain("attempt 4 of 4");

    // The session holds every answer and every message sent back: -c carries them on.
    const again = await runBinary({ args: ["-c", "and now?"], env, cwd: home.dir });
    expect(again.code).toBe(0);
    const carried = JSON.stringify(server.requests[4]!.body.messages);
    expect(carried).toContain("Ada Lovelace");
    expect(carried).toContain("attempt 4 of 4");
    // The run without the flag is told no schema.
    expect(systemOf(server.requests[4]!)).not.toContain("# Structured output");
  });

  test("-o text prints the value alone, as JSON, whatever else the model wrote", async () => {
    const server = await serve([
      { text: "Let me look.", toolCalls: [{ name: "Glob", input: { pattern: "*.none" } }] },
      { text: 'Here it is:\n```json\n{"name": "Ada", "age": 36}\n```' },
    ]);
    const r = await runBinary({ args: ["--json-schema", SCHEMA, "who?"], env: providerEnv(server.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"name":"Ada","age":36}\n');
  });

  test("a hostile answer's terminal controls are escaped in the printed value, the value kept", async () => {
    // U+009B is CSI on terminals that take 8-bit controls; U+202E reverses the line's text.
    const name = "\u009b2J\u202eevil";
    const server = await serve([{ text: JSON.stringify({ name, age: 1 }) }]);
    const r = await runBinary({ args: ["--json-schema", SCHEMA, "who?"], env: providerEnv(server.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("\u009b");
    expect(r.stdout).not.toContain("\u202e");
    expect(r.stdout).toContain("\\u009b2J\\u202eevil");
    expect(JSON.parse(r.stdout)).toEqual({ name, age: 1 });
  });

  test("a bad schema is a usage error of one line (exit 2) before anything is sent", async () => {
    const server = await serve([{ text: "{}" }]);
    const cases: Array<[string, string]> = [
      ['{"type": "strin"}', "--json-schema is not a valid JSON Schema: /type: must be equal to one of the allowed"],
      ["{type: object}", "--json-schema is not valid JSON"],
      ['{"$ref": "https://example.com/s.json"}', "can't resolve reference"],
      ['{"properties": {"id": {"pattern": "("}}}', "/properties/id/pattern: not a valid regular expression"],
      [
        '{"patternProperties": {"[a-": {"type": "string"}}}',
        '/patternProperties: "[a-" is not a valid regular expression',
      ],
    ];
    for (const [schema, says] of cases) {
      const r = await runBinary({ args: ["--json-schema", schema, "who?"], env: providerEnv(server.url) });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(says);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    const both = await runBinary({
      args: ["--json-schema", SCHEMA, "--output-schema", "s.json", "who?"],
      env: providerEnv(server.url),
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("cannot be used together");
    expect(server.requests).toHaveLength(0);
  });
});

test("the subcommands do not take the flags", async () => {
  for (const args of [
    ["sessions", "--json-schema", SCHEMA],
    ["doctor", "--output-schema", "s.json"],
  ]) {
    const r = await runBinary({ args });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is an option of a run with a prompt");
  }
});

const { tmux, session, stop: stopTmux } = tmuxServer();
afterAll(stopTmux);

test.skipIf(!hasTmux)(
  "on a terminal with no prompt, a usage error: the interactive session does not take it",
  async () => {
    const home = tempHome();
    const env = { ...home.env, ANTHROPIC_API_KEY: "test-key", TERM: "xterm-256color" };
    session({ env, name: "js", rows: 20, cwd: home.dir, command: `${BINARY} --json-schema '{}'` });
    let screen = "";
    for (let i = 0; i < 500 && !screen.includes("EXIT="); i++) {
      await Bun.sleep(30);
      screen = tmux("capture-pane", "-p", "-t", "js").stdout.toString();
    }
    tmux("kill-session", "-t", "js");
    expect(screen).toContain("--json-schema and --output-schema need a prompt");
    expect(screen).toContain("EXIT=2");
  },
  30_000,
);

describe("--output-schema", () => {
  test("reads the schema from the file named, relative to where synapse started, not -C", async () => {
    const server = await serve([{ text: '{"name": "Ada", "age": 36}' }]);
    const home = tempHome();
    const project = join(home.dir, "project");
    mkdirSync(project);
    writeFileSync(join(home.dir, "person.json"), SCHEMA);
    // A file of the same name in the project is not the one read.
    writeFileSync(join(project, "person.json"), '{"type": "string"}');
    const r = await runBinary({
      args: ["-o", "json", "-C", project, "--output-schema", "person.json", "who?"],
      env: { ...home.env, ...providerEnv(server.url, "openai") },
      cwd: home.dir,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).structured_output).toEqual({ name: "Ada", age: 36 });
    expect(systemOf(server.requests[0]!)).toContain(SCHEMA);
  });

  test("a file saved with a byte order mark (Windows editors) is read as the schema it holds", async () => {
    const server = await serve([{ text: '{"name": "Ada", "age": 36}' }]);
    const home = tempHome();
    writeFileSync(join(home.dir, "person.json"), `\ufeff${SCHEMA}`);
    const r = await runBinary({
      args: ["-o", "json", "--output-schema", "person.json", "who?"],
      env: { ...home.env, ...providerEnv(server.url) },
      cwd: home.dir,
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).structured_output).toEqual({ name: "Ada", age: 36 });
  });

  test("a missing file, or a folder, is a usage error", async () => {
    const server = await serve([{ text: "{}" }]);
    const home = tempHome();
    for (const [path, says] of [
      ["nowhere.json", "no such file"],
      [".", "not a regular file"],
    ]) {
      const r = await runBinary({
        args: ["--output-schema", path!, "who?"],
        env: { ...home.env, ...providerEnv(server.url) },
        cwd: home.dir,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(says!);
    }
    expect(server.requests).toHaveLength(0);
  });
});
