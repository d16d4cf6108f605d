// A JSON Schema checked and compiled by ajv, the validator the MCP SDK already bundles (so the binary
// carries it anyway). Imported only when a run asks for structured output: start-up without
// --json-schema never loads ajv.

import type { ErrorObject, Options } from "ajv";

/** A compiled schema: `check` lists what is wrong with a value, in plain words (empty: valid). */
export interface CompiledSchema {
  check(value: unknown): string[];
}

/** Errors listed for one value at most: the rest are counted, so a feedback message stays short. */
export const MAX_LISTED_ERRORS = 10;

/** The `$schema` URIs a schema may name, by the ajv class that speaks that dialect. */
const DIALECTS: Array<{ pattern: RegExp; dialect: Dialect }> = [
  { pattern: /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, dialect: "draft-07" },
  { pattern: /^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, dialect: "2019-09" },
  { pattern: /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, dialect: "2020-12" },
];
type Dialect = "draft-07" | "2019-09" | "2020-12";

const OPTIONS: Options = {
  allErrors: true,
  // Keywords ajv does not know (`x-…`, a vendor's annotations) are ignored, as most validators do;
  // an invalid use of a known one is still refused by the meta-schema.
  strict: false,
  // ajv's warnings would reach stderr by console; nothing below cli writes to the terminal.
  logger: false,
  // Checked against the meta-schema only when compiling fails (see compileJsonSchema).
  validateSchema: false,
};

/** Which dialect a schema declares; throws a one-line Error for one ajv does not speak. */
export function dialectOf(schema: Record<string, unknown>): Dialect {
  const uri = schema.$schema;
  if (uri === undefined) return "draft-07";
  const known = typeof uri === "string" ? DIALECTS.find((d) => d.pattern.test(uri.trim())) : undefined;
  if (!known) throw new Error(`its $schema ${JSON.stringify(uri)} is not one of draft-07, 2019-09 or 2020-12`);
  return known.dialect;
}

/**
 * Compiles `schema` (ajv refuses a keyword with a value of the wrong kind); throws an Error with one
 * line saying what is wrong, where the meta-schema can tell (never fetches a remote `$ref`: ajv
 * resolves only what the schema holds).
 */
export async function compileJsonSchema(schema: unknown): Promise<CompiledSchema> {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema))
    throw new Error("a JSON Schema must be a JSON object");
  const dialect = dialectOf(schema as Record<string, unknown>);
  const ajv = await newAjv(dialect);
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    // Only now the meta-schema, for an error that says where: compiling it costs ~4 times the
    // rest (~110 ms of CPU here), and compiling the schema already refuses a keyword's bad value.
    if (!ajv.validateSchema(schema)) {
      // The first error is the most specific; an anyOf's alternatives only repeat it.
      const first = ajv.errors?.[0];
      if (first) throw new Error(schemaErrorText(first));
    }
    // ajv's own error for a bad regular expression does not say where it is.
    throw new Error(badPatternAt(schema) ?? oneLine(err instanceof Error ? err.message : String(err)));
  }
  return {
    check(value) {
      if (validate(value)) return [];
      return listErrors(validate.errors ?? []);
    },
  };
}

async function newAjv(dialect: Dialect) {
  const addFormats = (await import("ajv-formats")).default;
  const Ajv =
    dialect === "2020-12"
      ? (await import("ajv/dist/2020")).default
      : dialect === "2019-09"
        ? (await import("ajv/dist/2019")).default
        : (await import("ajv")).default;
  const ajv = new Ajv(OPTIONS);
  addFormats(ajv);
  return ajv;
}

/** The errors of one value, at most MAX_LISTED_ERRORS of them, the rest counted. */
export function listErrors(errors: ErrorObject[]): string[] {
  const lines = errors.slice(0, MAX_LISTED_ERRORS).map(valueErrorText);
  if (errors.length > MAX_LISTED_ERRORS) lines.push(`... and ${errors.length - MAX_LISTED_ERRORS} more`);
  return lines;
}

/** One error in a value: where (a JSON Pointer) and what, with the names ajv keeps in `params`. */
export function valueErrorText(error: ErrorObject): string {
  const where = error.instancePath ? `at ${error.instancePath}` : "at the top level";
  return `${where}: ${error.message ?? error.keyword}${paramsDetail(error)}`;
}

function schemaErrorText(error: ErrorObject): string {
  return `${error.instancePath || "the schema"}: ${error.message ?? error.keyword}${paramsDetail(error)}`;
}

function paramsDetail(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") return ` ("${String(p.additionalProperty)}")`;
  if (error.keyword === "unevaluatedProperties") return ` ("${String(p.unevaluatedProperty)}")`;
  if (error.keyword === "enum") return ` (${JSON.stringify(p.allowedValues)})`;
  if (error.keyword === "const") return ` (${JSON.stringify(p.allowedValue)})`;
  return "";
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Keywords whose values are data, not schemas: a `pattern` key inside them is no regular expression. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

/** Whether ajv (Unicode regular expressions) takes `pattern`. */
function compilesAsRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/** Where the first `pattern` or `patternProperties` key that is no regular expression is (JSON Pointer). */
export function badPatternAt(node: unknown, at = ""): string | undefined {
  if (node === null || typeof node !== "object") return undefined;
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(key)) continue;
    const here = `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (key === "pattern" && typeof value === "string" && !compilesAsRegExp(value))
      return `${here}: not a valid regular expression`;
    if (key === "patternProperties" && value !== null && typeof value === "object") {
      const bad = Object.keys(value).find((name) => !compilesAsRegExp(name));
      if (bad !== undefined) return `${here}: ${JSON.stringify(bad)} is not a valid regular expression`;
    }
    const inner = badPatternAt(value, here);
    if (inner) return inner;
  }
  return undefined;
}
