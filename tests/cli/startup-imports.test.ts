// Start-up (issue 23 §3): what a one-turn headless run loads before its first request. The modules
// reached by static imports from the run's path must build no zod schema at load (a schema is
// built on first use), and must not pull in code only a tool call or another output format needs.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = join(import.meta.dir, "..", "..");
// main.ts and what it imports (statically, then through import()) on the way to a headless run.
const RUN_PATH = [
  "src/cli/main.ts",
  "src/cli/args.ts",
  "src/config/config-files.ts",
  "src/runtime/environ-secrets.ts",
  "src/runtime/non-dumpable.ts",
  "src/runtime/trusted-path.ts",
  "src/cli/work-dirs.ts",
  "src/cli/terminal.ts",
  "src/cli/headless.ts",
];

const transpiler = new Bun.Transpiler({ loader: "ts" });
// build.ts replaces these modules in the binary with generated values: their imports are not its.
const REPLACED_AT_BUILD = new Set(["src/tools/prebuilt-schemas.ts"]);

/** Every module of ours reached from `entries` by static imports (import() is not followed). */
function staticGraph(entries: string[], packages = new Set<string>()): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (REPLACED_AT_BUILD.has(relative(root, file))) return;
    for (const imp of transpiler.scanImports(readFileSync(file, "utf8"))) {
      if (imp.kind === "import-statement" && !imp.path.startsWith(".")) packages.add(imp.path);
      if (imp.kind !== "import-statement" || !imp.path.startsWith(".")) continue;
      const target = resolve(dirname(file), imp.path);
      if (target.endsWith(".ts") && existsSync(target)) walk(target);
    }
  };
  for (const entry of entries) walk(join(root, entry));
  return [...seen].map((file) => relative(root, file));
}

// A top-level statement is a line at column 0 and the indented lines under it.
const DEFERRED =
  /^(export )?(const|let) \w+(: [^=]+)? = (\([^)]*\)|\w+)( =>|: )|^(export )?(async )?function|^(export )?(class|interface|type) /;

/** Top-level statements that call zod (`z.something(`) outside a function: schemas built at load. */
function schemasBuiltAtLoad(source: string): string[] {
  const statements: string[] = [];
  for (const line of source.split("\n")) {
    if (/^\S/.test(line) && !/^[})\]]/.test(line)) statements.push(line);
    else if (statements.length) statements[statements.length - 1] += `\n${line}`;
  }
  return statements.filter((s) => /\bz\.[a-zA-Z]+\(/.test(s) && !DEFERRED.test(s)).map((s) => s.split("\n")[0] ?? "");
}

test("the check finds a schema built at load, and passes one built on first use", () => {
  const cases: Array<[string, number]> = [
    ["const input = toolInput({\n  path: z.string(),\n});\n", 1],
    ["export const schema = z.object({ a: z.string() });\n", 1],
    ["const input = () =>\n  toolInput({\n    path: z.string(),\n  });\n", 0],
    ["function build() {\n  return z.object({});\n}\n", 0],
    ["const lazy = (text: string) => z.optional(z.string());\n", 0],
  ];
  for (const [source, found] of cases) expect(schemasBuiltAtLoad(source)).toHaveLength(found);
});

test("no module on a headless run's way to its first request builds a schema at load", () => {
  const graph = staticGraph(RUN_PATH);
  expect(graph).toContain("src/protocol/message-schema.ts");
  const built = graph.flatMap((file) =>
    schemasBuiltAtLoad(readFileSync(join(root, file), "utf8")).map((line) => `${file}: ${line}`),
  );
  expect(built).toEqual([]);
});

test("the shell pool and the json and stream-json writers load only when needed", () => {
  const graph = staticGraph(RUN_PATH);
  for (const late of [
    "src/shell/shell-pool.ts",
    "src/shell/shell-process.ts",
    "src/cli/output/json-writer.ts",
    "src/cli/output/stream-json-writer.ts",
  ])
    expect(graph).not.toContain(late);
});

test("node:util (parseArgs) and the config files' schemas load only when needed", () => {
  // node:util is ~5 ms of a compiled start: only a command line with options loads it (args.ts);
  // the config files' zod schemas load only when a config file exists (main.ts).
  const packages = new Set<string>();
  const graph = staticGraph(RUN_PATH, packages);
  expect(graph).toContain("src/config/config.ts");
  expect(packages).toContain("node:fs");
  expect([...packages]).not.toContain("node:util");
  expect(graph).not.toContain("src/config/file-config.ts");
});

test("the tools' code and the tool-call path load with the first tool call", () => {
  // A request needs each tool's name, description and JSON Schema only (tools/registry.ts); a call
  // loads the tools' code, the input checks and the permission gate (agent/tool-batch.ts). Session
  // open checks the rules with the rule parser alone (policy/build-policy.ts).
  const graph = staticGraph(RUN_PATH);
  expect(graph).toContain("src/tools/registry.ts");
  expect(graph).toContain("src/policy/build-policy.ts");
  expect(graph).toContain("src/policy/rule.ts");
  for (const late of [
    "src/tools/tool-code.ts",
    ...["bash", "read", "write", "edit", "glob", "grep"].map((tool) => `src/tools/${tool}.ts`),
    "src/tools/input-schema.ts",
    "src/agent/tool-call.ts",
    "src/agent/task-gate.ts",
    "src/policy/gate.ts",
    "src/policy/policy.ts",
    "src/policy/bash-decision.ts",
  ])
    expect(graph).not.toContain(late);
});
