// Issue 22's habits as checks: source lines under 120 characters, no function in src/ or workers/ over 120
// lines. Each failure names its place (`file:line`) so the fix starts there.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { LIMIT, longFunctions, longLines, typeScriptFiles } from "./support/code-shape.ts";

const ROOT = resolve(import.meta.dir, "..");
const read = (file: string) => readFileSync(file, "utf8");
const where = (file: string) => relative(ROOT, file);

describe("the measures", () => {
  test.each([
    ["a line at the limit", "x".repeat(LIMIT), []],
    ["a line one past it", `ok\n${"x".repeat(LIMIT + 1)}\nok`, [2]],
    ["a line ending in CRLF, at the limit", `${"x".repeat(LIMIT)}\r\n`, []],
    ["wide characters counted once each", "─".repeat(LIMIT), []],
    ["astral characters counted once each", "😀".repeat(LIMIT), []],
  ] as const)("%s", (_, text, expected) => {
    expect(longLines(text)).toEqual([...expected]);
  });

  const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  f(${i});`).join("\n");
  test.each([
    ["a function declaration", (n: number) => `function plain() {\n${body(n)}\n}`, "plain", 2],
    ["an exported async one", (n: number) => `export async function run() {\n${body(n)}\n}`, "run", 2],
    ["an arrow in a const", (n: number) => `const go = async () => {\n${body(n)}\n};`, "go", 2],
    ["a function expression", (n: number) => `const fx = function () {\n${body(n)}\n};`, "fx", 2],
    ["a method", (n: number) => `class Pool {\n  take() {\n${body(n)}\n  }\n}`, "Pool.take", 3],
    ["a constructor", (n: number) => `class Pool {\n  constructor() {\n${body(n)}\n  }\n}`, "Pool.constructor", 3],
    ["a getter", (n: number) => `class Pool {\n  get size() {\n${body(n)}\n  }\n}`, "Pool.size", 3],
    ["an object's method", (n: number) => `const api = {\n  send() {\n${body(n)}\n  },\n};`, "api.send", 3],
    ["an arrow property", (n: number) => `const api = {\n  recv: () => {\n${body(n)}\n  },\n};`, "api.recv", 3],
    ["a returned object's method", (n: number) => `return {\n  send() {\n${body(n)}\n  },\n};`, "send", 3],
    ["a class field", (n: number) => `class Pool {\n  run = () => {\n${body(n)}\n  };\n}`, "Pool.run", 3],
    ["a callback", (n: number) => `new Promise((resolve) => {\n${body(n)}\n});`, "new Promise callback", 2],
    ["an export default", (n: number) => `export default function () {\n${body(n)}\n}`, "default", 2],
  ] as const)("finds %s over the limit, and not at it", (_, source, name, line) => {
    expect(longFunctions("at.ts", source(LIMIT))).toEqual([]);
    const over = longFunctions("over.ts", `// a comment\n${source(LIMIT + 1)}`);
    expect(over.map((f) => `${f.line} ${f.name} ${f.lines}`)).toEqual([`${line} ${name} ${LIMIT + 1}`]);
  });

  test("a long function inside a long function: both named, outer first", () => {
    const source = `function outer() {\n  const inner = () => {\n${body(LIMIT + 1)}\n  };\n}`;
    expect(longFunctions("nested.ts", source).map((f) => f.name)).toEqual(["outer", "inner"]);
  });

  test("interfaces and overload signatures are not functions", () => {
    const filler = Array.from({ length: LIMIT + 1 }, (_, i) => `  m${i}(): void;`).join("\n");
    expect(longFunctions("types.ts", `interface Big {\n${filler}\n}\ndeclare function f(): void;`)).toEqual([]);
  });
});

describe("the tree", () => {
  const lineFiles = [
    ...typeScriptFiles(join(ROOT, "src")),
    ...typeScriptFiles(join(ROOT, "workers")),
    join(ROOT, "build.ts"),
  ];
  const functionFiles = lineFiles.filter((f) => !f.endsWith("build.ts"));

  test(`no line in src/, workers/ or build.ts is over ${LIMIT} characters`, () => {
    const long = lineFiles.flatMap((file) => longLines(read(file)).map((line) => `${where(file)}:${line}`));
    expect(long).toEqual([]);
  });

  test(`no function in src/ or workers/ is over ${LIMIT} lines`, () => {
    const long = functionFiles.flatMap((file) =>
      longFunctions(file, read(file)).map((f) => `${where(file)}:${f.line} ${f.name} (${f.lines} lines)`),
    );
    expect(long).toEqual([]);
  });
});
