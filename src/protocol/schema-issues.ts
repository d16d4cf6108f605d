// Turns a schema library's issues into the sentences Synapse shows: to the model (tool input), the
// user (config files) or a log (archive lines). One wording for every trust boundary.
//
// Schemas are zod 4's "mini" build (docs/ARCHITECTURE.md, "Schemas"). This module only reads the
// issue objects, so it loads no schema code itself.

import type { core } from "zod/mini";

export type SchemaIssue = core.$ZodIssue;

/** At most `max` UTF-16 units, never ending in half a surrogate pair (the message would be malformed). */
function head(text: string, max: number): string {
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** How a value is shown in a message: short, and never its whole text. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") {
    return `the string ${JSON.stringify(value.length > 40 ? `${head(value, 40)}…` : value)}`;
  }
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

/** `tags[1]`, `permissions.allow`: how a path into the input is named. */
export function pathName(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const TYPE_NAMES: Record<string, string> = { int: "integer", record: "object", map: "object", tuple: "array" };
const article = (type: string) => (/^[aeiou]/.test(type) ? "an" : "a");

interface SchemaDef {
  type: string;
  format?: string;
  innerType?: { _zod: { def: SchemaDef } };
  shape?: Record<string, { _zod: { def: SchemaDef } }>;
  element?: { _zod: { def: SchemaDef } };
}

/**
 * What the schema wants at a path, as a word. zod reports a string given for an integer as a
 * "number" expected; the schema itself knows it is an integer.
 */
function expectedAt(schema: core.$ZodType | undefined, path: readonly PropertyKey[], reported: string): string {
  let def = schema?._zod.def as SchemaDef | undefined;
  for (let i = 0; def && i <= path.length; ) {
    if (def.innerType) def = def.innerType._zod.def;
    else if (i === path.length) break;
    else if (def.shape) def = def.shape[String(path[i++])]?._zod.def;
    else if (def.element) {
      def = def.element._zod.def;
      i++;
    } else def = undefined;
  }
  if (def?.type === "number" && def.format?.includes("int")) return "integer";
  return TYPE_NAMES[reported] ?? reported;
}

export interface PhraseOptions {
  /** The schema the issues came from: lets a message say "integer" where zod says "number". */
  schema?: core.$ZodType;
  /** How a key the schema does not name is reported. */
  unknownKey?: (name: string) => string;
}

/** One phrase per issue, each naming the field: `"offset" must be an integer, got the string "5"`. */
export function issuePhrases(issues: readonly SchemaIssue[], input: unknown, options: PhraseOptions = {}): string[] {
  const unknownKey = options.unknownKey ?? ((name: string) => `${name} is not a known key`);
  const phrases: string[] = [];
  for (const issue of issues) {
    const name = `"${pathName(issue.path)}"`;
    const got = () => `, got ${describeValue(valueAt(input, issue.path))}`;
    switch (issue.code) {
      case "invalid_type":
      case "invalid_union": {
        if (valueAt(input, issue.path) === undefined) {
          phrases.push(issue.path.length ? `${name} is required` : "a value is required");
          break;
        }
        if (issue.code === "invalid_union") {
          phrases.push(`${issue.path.length ? name : "the value"} has an unexpected shape${got()}`);
          break;
        }
        const type = expectedAt(options.schema, issue.path, issue.expected);
        phrases.push(`${issue.path.length ? name : "the value"} must be ${article(type)} ${type}${got()}`);
        break;
      }
      case "unrecognized_keys":
        for (const key of issue.keys) phrases.push(unknownKey(`"${pathName([...issue.path, key])}"`));
        break;
      case "invalid_value":
        phrases.push(`${name} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}${got()}`);
        break;
      case "too_small":
        phrases.push(`${name} must be at least ${String(issue.minimum)}${got()}`);
        break;
      case "too_big":
        phrases.push(`${name} must be at most ${String(issue.maximum)}${got()}`);
        break;
      default:
        phrases.push(`${name}: ${issue.message}`);
    }
  }
  return phrases;
}
