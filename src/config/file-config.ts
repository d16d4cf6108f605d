// The keys a config.json may hold, each with its schema and the sentence a bad value gets: the same
// rules as the flags and variables they stand in for, and a bad value is never ignored.

import * as z from "zod/mini";
import { type FileConfig, MAX_OUTPUT_TOKENS, SANDBOX_MODES } from "./config.ts";
import { checkHookSettings } from "../protocol/hook-events.ts";

const PERMISSION_MODES = ["default", "accept-edits", "bypass", "plan"] as const;

/** One check of a setting: its schema, and what a value that fails it is told. */
type Rule = [schema: z.ZodMiniType, says: (name: string, value: unknown) => string];
/** A section: an object of settings of its own (`permissions`, `sandbox`). */
interface Section {
  keys: Record<string, Rule[]>;
  notObject: (name: string) => string;
  /** Names the keys a section allows, in the message for one it does not. */
  allowed: string;
  /** Keys that must be there, and what their absence is told. */
  required?: { keys: string[]; says: (name: string) => string };
  /** Report a key it does not know before any value (else each key in the file's order). */
  unknownKeysFirst?: boolean;
}
type Setting = Rule[] | Section;

const got = (value: unknown) => `(got ${JSON.stringify(value)})`;
const whole = (min: number): Rule => [
  z.int().check(z.minimum(min)),
  (name, value) => `"${name}" must be a whole number >= ${min} ${got(value)}`,
];
const oneOf = (values: readonly string[]): Rule => [
  z.enum(values as [string, ...string[]]),
  (name, value) => `"${name}" must be one of ${values.join(", ")} ${got(value)}`,
];
const atMost = (max: number): Rule => [
  z.number().check(z.maximum(max)),
  (name, value) => `"${name}" must be at most ${max} ${got(value)}`,
];
const flag = (): Rule => [z.boolean(), (name, value) => `"${name}" must be true or false ${got(value)}`];
const dollars = (): Rule => [
  z.number().check(z.minimum(0)),
  (name, value) => `"${name}" must be a number of dollars >= 0 ${got(value)}`,
];
const rules = (): Rule => [z.array(z.string()), (name) => `"${name}" must be a list of rule strings`];
const nonEmpty = (): Rule => [
  z.string().check(z.refine((s) => s.trim() !== "")),
  (name, value) => `"${name}" must be a non-empty string ${got(value)}`,
];

// Every key of FileConfig (the type checker says when one is missing). Built on first use: a run
// without config files never pays for the schemas.
const settings = (): Record<keyof FileConfig, Setting> => ({
  maxTurns: [whole(1)],
  maxTokens: [whole(1), atMost(MAX_OUTPUT_TOKENS)],
  maxRetries: [whole(0)],
  loopLimit: [whole(0)],
  model: [nonEmpty()],
  permissionMode: [oneOf(PERMISSION_MODES)],
  permissions: {
    keys: { allow: [rules()], deny: [rules()] },
    notObject: (name) => `"${name}" must be an object with "allow" and "deny" lists`,
    allowed: "allow or deny",
  },
  autoCondense: [flag()],
  sandbox: {
    keys: { mode: [oneOf(SANDBOX_MODES)], network: [flag()] },
    notObject: (name) => `"${name}" must be an object with "mode" and "network"`,
    allowed: "mode or network",
    unknownKeysFirst: true,
  },
  price: {
    keys: { input: [dollars()], output: [dollars()], cacheWrite: [dollars()], cacheRead: [dollars()] },
    notObject: (name) => `"${name}" must be an object with "input" and "output" (dollars per million tokens)`,
    allowed: "input, output, cacheWrite or cacheRead",
    required: { keys: ["input", "output"], says: (name) => `"${name}" needs both "input" and "output"` },
  },
  // Each server's entry is checked when a session starts it (src/mcp): a bad one fails that server only.
  mcpServers: [[z.record(z.string(), z.unknown()), (name) => `"${name}" must be an object of MCP servers by name`]],
  // Claude Code's settings format; the project's hooks run only once approved (src/hooks).
  hooks: [[z.custom((value) => checkHookSettings(value).ok), (name, value) => hooksError(name, value)]],
});
let built: ReturnType<typeof settings> | undefined;

function hooksError(name: string, value: unknown): string {
  const checked = checkHookSettings(value);
  return `"${name}": ${checked.ok ? "invalid" : checked.error}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function checkRules(name: string, value: unknown, list: Rule[]): void {
  for (const [schema, says] of list) if (!z.safeParse(schema, value).success) throw new Error(says(name, value));
}

function checkSection(name: string, value: unknown, section: Section): void {
  if (!isObject(value)) throw new Error(section.notObject(name));
  const unknownKey = (key: string) => new Error(`unknown setting "${name}.${key}" (${section.allowed})`);
  if (section.unknownKeysFirst) {
    for (const key of Object.keys(value)) if (!Object.hasOwn(section.keys, key)) throw unknownKey(key);
  }
  const order = section.unknownKeysFirst ? Object.keys(section.keys) : Object.keys(value);
  for (const key of order) {
    if (!Object.hasOwn(section.keys, key)) throw unknownKey(key);
    if (value[key] !== undefined) checkRules(`${name}.${key}`, value[key], section.keys[key] ?? []);
  }
  if (section.required?.keys.some((key) => value[key] === undefined)) throw new Error(section.required.says(name));
}

/** Checks a parsed config.json; the error's message is the sentence for the user. */
export function checkFileConfig(value: unknown): FileConfig {
  if (!isObject(value)) throw new Error("not a JSON object");
  built ??= settings();
  const table = built;
  for (const [key, setting] of Object.entries(table)) {
    if (value[key] === undefined) continue;
    if (Array.isArray(setting)) checkRules(key, value[key], setting);
    else checkSection(key, value[key], setting);
  }
  const unknown = Object.keys(value).filter((k) => !Object.hasOwn(table, k));
  if (unknown.length) {
    throw new Error(`unknown setting${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")}`);
  }
  return value as FileConfig;
}
