// Structured output (issue 21 §5): a run whose final answer must be one JSON value valid against a
// JSON Schema, named by `--json-schema '<json>'` (Claude Code), `--output-schema <file>` (Codex) or
// the Agent SDK's `outputFormat` (config/output-schema-source.ts).
//
// Entry point: `loadStructuredOutput(source)`, called once at start. It reads the schema (a file
// once, from the path given), checks it is a valid JSON Schema and compiles it; anything wrong is a
// UsageError of one line (exit 2) before a session opens. What it returns is used twice:
//  - `promptSuffix` is appended to the system prompt: the model is told the schema in the same
//    bytes on every request, so the prompt cache stays warm (a note in the last user message
//    would move the cache's end on each turn);
//  - `judge()` is one run's validation loop: the runner (`RunInput.answerJudge`) hands it each final
//    answer (text with no tool calls). `valid` ends the run with the value (RunResult's
//    `structured_output`); `retry` sends the errors back to the model as a user message, at most
//    MAX_STRUCTURED_RETRIES times; then `exhausted` ends the run as
//    `error_max_structured_output_retries` (exit 1, the session saved like any run).
// The session runtime does both when `config.outputSchema` is set; a program driving synapse (the
// Agent SDK's `initialize` with a JSON schema) sets it to `{ origin: "outputFormat", schema }`.

import { readFile, stat } from "node:fs/promises";
import type { OutputSchemaSource } from "../config/output-schema-source.ts";
import { UsageError, errorMessage } from "../protocol/errors.ts";
import { type CompiledSchema, compileJsonSchema } from "./json-schema-check.ts";

/** Answers sent back with their errors before the run fails (Claude Code's bound is of this order). */
export const MAX_STRUCTURED_RETRIES = 3;
/** A schema larger than this is refused: it rides along with every request. */
export const MAX_SCHEMA_BYTES = 256 * 1024;

export type Verdict =
  | { kind: "valid"; value: unknown }
  /** `feedback`: the user message that tells the model what was wrong and asks again. */
  | { kind: "retry"; feedback: string }
  /** `reason`: the run's result text (the last answer's errors). */
  | { kind: "exhausted"; reason: string };

/** One run's validation loop: it counts the answers it has sent back. */
export interface AnswerJudge {
  verdict(answer: string): Verdict;
}

export interface StructuredOutput {
  /** Appended to the system prompt (ASCII, the same bytes every request). */
  readonly promptSuffix: string;
  /** A fresh loop for one run. */
  judge(): AnswerJudge;
}

/** Reads and checks the schema once; a UsageError (exit 2) of one line when it cannot be used. */
export async function loadStructuredOutput(source: OutputSchemaSource): Promise<StructuredOutput> {
  const schema = await schemaOf(source);
  let compiled: CompiledSchema;
  try {
    compiled = await compileJsonSchema(schema);
  } catch (err) {
    throw new UsageError(`${describe(source)} is not a valid JSON Schema: ${errorMessage(err)}`);
  }
  const promptSuffix = structuredOutputPrompt(schema);
  return {
    promptSuffix,
    judge: () => answerJudge(compiled, MAX_STRUCTURED_RETRIES),
  };
}

/** The validation loop over a compiled schema, `maxRetries` answers sent back at most. */
export function answerJudge(compiled: CompiledSchema, maxRetries: number): AnswerJudge {
  let retries = 0;
  return {
    verdict(answer) {
      const parsed = parseAnswer(answer);
      const errors = parsed.ok ? compiled.check(parsed.value) : [parsed.error];
      if (parsed.ok && !errors.length) return { kind: "valid", value: parsed.value };
      if (retries >= maxRetries) {
        const attempts = retries + 1;
        return {
          kind: "exhausted",
          reason: `the final answer did not match the JSON schema after ${attempts} attempts: ${errors.join("; ")}`,
        };
      }
      retries++;
      return { kind: "retry", feedback: feedbackMessage(errors, retries + 1, maxRetries + 1) };
    },
  };
}

export type ParsedAnswer = { ok: true; value: unknown } | { ok: false; error: string };

// A fenced block: ``` or ```json (any info word), then the lines up to the closing fence.
const FENCE = /```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```/g;

/**
 * The JSON value of a final answer: the whole text, or the one fenced code block it holds (models
 * often fence JSON however they are told), prose around it ignored.
 */
export function parseAnswer(answer: string): ParsedAnswer {
  const text = answer.trim();
  if (!text) return { ok: false, error: "the answer is empty: reply with the JSON value" };
  const whole = tryJson(text);
  if (whole.ok) return whole;
  const blocks = [...text.matchAll(FENCE)].map((m) => m[1] ?? "");
  if (blocks.length > 1)
    return { ok: false, error: `the answer holds ${blocks.length} code blocks: reply with exactly one JSON value` };
  const [block] = blocks;
  if (block !== undefined) {
    const fenced = tryJson(block.trim());
    return fenced.ok ? fenced : { ok: false, error: `the code block is not valid JSON (${fenced.error})` };
  }
  return { ok: false, error: `the answer is not valid JSON (${whole.error})` };
}

function tryJson(text: string): ParsedAnswer {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: errorMessage(err).slice(0, 200) };
  }
}

/** The user message that sends an invalid answer back. */
export function feedbackMessage(errors: string[], attempt: number, attempts: number): string {
  return [
    "Your final answer does not match the required JSON schema:",
    ...errors.map((e) => `- ${e}`),
    `Reply again with only the corrected JSON value: no prose, no code fence (attempt ${attempt} of ${attempts}).`,
  ].join("\n");
}

/** The system prompt's addition: the schema and how to answer. ASCII only (see docs/ARCHITECTURE.md "Memory"). */
export function structuredOutputPrompt(schema: unknown): string {
  return [
    "",
    "",
    "# Structured output",
    "This run's final answer must be one JSON value that is valid against the JSON Schema below. Use",
    "tools first as the task needs; then reply with that JSON value alone: no prose before or after",
    "it, no code fence. A reply that does not validate is sent back to you with the errors.",
    "<json-schema>",
    asciiJson(schema),
    "</json-schema>",
  ].join("\n");
}

/** JSON with every non-ASCII character escaped (\uXXXX): the same value, an 8-bit string. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

async function schemaOf(source: OutputSchemaSource): Promise<unknown> {
  if (source.origin === "outputFormat") return source.schema;
  const text = source.origin === "--json-schema" ? source.text : await readSchemaFile(source.path);
  if (new TextEncoder().encode(text).length > MAX_SCHEMA_BYTES)
    throw new UsageError(`${describe(source)} is larger than ${MAX_SCHEMA_BYTES / 1024} KiB`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${describe(source)} is not valid JSON: ${errorMessage(err)}`);
  }
}

/** The file, read once; checked first, so a FIFO or a device never blocks or floods the start. */
async function readSchemaFile(path: string): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error("not a regular file");
    if (info.size > MAX_SCHEMA_BYTES) throw new Error(`larger than ${MAX_SCHEMA_BYTES / 1024} KiB`);
    // A byte order mark (Windows editors write one) is no part of the JSON.
    return (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : errorMessage(err);
    throw new UsageError(`--output-schema: cannot read ${path}: ${why}`);
  }
}

function describe(source: OutputSchemaSource): string {
  if (source.origin === "--output-schema") return `--output-schema ${source.path}`;
  return source.origin === "--json-schema" ? "--json-schema" : "the outputFormat schema";
}
