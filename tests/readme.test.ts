// The README documents every environment variable the config reads (only src/config/ reads the
// environment), and states the provider-selection rule the code follows; its flags, variables and
// exit codes are checked against the compiled binary's --help, the argument parser, the config and
// the exit codes in src/protocol/errors.ts, so the two cannot drift apart.

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { OPTIONS } from "../src/cli/args.ts";
import { resolveSelection } from "../src/llm/select.ts";
import { EXIT } from "../src/protocol/errors.ts";

const ROOT = join(import.meta.dir, "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

test("every variable src/config reads is in the README", () => {
  const dir = join(ROOT, "src", "config");
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const text = readFileSync(join(dir, file), "utf8");
    for (const m of text.matchAll(/(?:env\.|env\[\s*"|int\(env,\s*")([A-Z][A-Z0-9_]+)/g)) names.add(m[1]!);
  }
  const ours = [...names].filter((n) => /^(SYNAPSE_|ANTHROPIC_|OPENAI_|TOOL_|NO_COLOR|XDG_)/.test(n));
  expect(ours.length).toBeGreaterThan(20);
  expect(ours.filter((n) => !new RegExp(`\\b${n}\\b`).test(README))).toEqual([]);
});

test("the README's selection rule for a local model with both providers set is what the code does", () => {
  // The case: ANTHROPIC_API_KEY, OPENAI_BASE_URL and -m llama3 go to the local server.
  const picked = resolveSelection({
    model: "llama3",
    anthropic: { apiKey: "k" },
    openai: { baseUrl: "http://localhost:11434/v1" },
  });
  expect(picked.provider).toBe("openai");
  const flat = README.replace(/\s+/g, " ");
  expect(flat).toContain(
    "goes to the OpenAI-compatible server when `OPENAI_BASE_URL` is set (even if `ANTHROPIC_API_KEY` is set too)",
  );
  expect(flat).not.toContain("otherwise whichever key is set, Anthropic first");
  // And the base URL forms each SDK expects.
  expect(README).toContain("export OPENAI_BASE_URL=http://localhost:11434/v1");
});

// ---- The README's documented flags, variables and exit codes against --help and the code ------

/** The lines of the README section that starts with `heading`, up to the next heading of any level. */
function section(heading: string): string {
  const lines = README.split("\n");
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`README has no "${heading}"`);
  const end = lines.findIndex((l, i) => i > start && /^#{2,3} /.test(l));
  return lines.slice(start + 1, end === -1 ? undefined : end).join("\n");
}

/** A markdown table's rows (after the header and the rule) as cells, from the first table in `text`. */
function tableRows(text: string): string[][] {
  const rows = text.split("\n").filter((l) => l.startsWith("|"));
  return rows.slice(2).map((r) =>
    r
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim()),
  );
}

// camelCase too: the Agent SDK's --allowedTools and --disallowedTools are Claude Code's spelling.
const longFlags = (text: string) =>
  new Set([...text.matchAll(/(?<![\w-])--([a-z][a-zA-Z-]*[a-zA-Z])/g)].map((m) => m[1]!));
/** `-x, --name` pairs as written in an option list. */
const shortPairs = (text: string) =>
  new Map([...text.matchAll(/(?<![\w-])-([A-Za-z]), --([a-z][a-z-]*)/g)].map((m) => [m[1]!, m[2]!] as const));
const sorted = (s: Iterable<string>) => [...s].sort();

const HELP = Bun.spawnSync([join(ROOT, "dist", "synapse"), "--help"], { stdout: "pipe" }).stdout.toString();
const USAGE = section("## Usage");
/** The usage block and the option table: where the README documents the command line. */
const README_FLAGS = USAGE.slice(
  0,
  USAGE.indexOf("### Exit codes") === -1 ? undefined : USAGE.indexOf("### Exit codes"),
);
const README_OPTION_TEXT = [
  /```\n([\s\S]*?)```/.exec(README_FLAGS)![1]!,
  ...README_FLAGS.split("\n").filter((l) => l.startsWith("| `-")),
].join("\n");

describe("the command line: args.ts, --help and the README's usage and option table agree", () => {
  const parsed = Object.entries(OPTIONS) as Array<[string, { short?: string }]>;

  test("every long flag args.ts parses is in --help and in the README, and neither names one it does not parse", () => {
    expect(HELP).toContain("Usage:");
    const known = new Set(parsed.map(([name]) => name));
    const help = longFlags(HELP);
    const readme = longFlags(README_OPTION_TEXT);
    expect({
      missingFromHelp: sorted([...known].filter((f) => !help.has(f))),
      unknownInHelp: sorted([...help].filter((f) => !known.has(f))),
    }).toEqual({ missingFromHelp: [], unknownInHelp: [] });
    expect({
      missingFromReadme: sorted([...known].filter((f) => !readme.has(f))),
      unknownInReadme: sorted([...readme].filter((f) => !known.has(f))),
    }).toEqual({ missingFromReadme: [], unknownInReadme: [] });
  });

  test("each short flag stands for the same long flag in args.ts, --help and the README", () => {
    const fromArgs = new Map(parsed.filter(([, o]) => o.short).map(([name, o]) => [o.short!, name] as const));
    expect(Object.fromEntries(shortPairs(HELP))).toEqual(Object.fromEntries(fromArgs));
    expect(Object.fromEntries(shortPairs(README_OPTION_TEXT))).toEqual(Object.fromEntries(fromArgs));
  });
});

describe("exit codes: the README's table, --help and src/protocol/errors.ts agree", () => {
  const codes = sorted(Object.values(EXIT).map(String));

  test("the README's table lists exactly the codes the program uses", () => {
    const table = tableRows(section("### Exit codes")).map((r) => r[0]!);
    expect(sorted(table)).toEqual(codes);
  });

  test("--help names each of them", () => {
    const line = HELP.slice(HELP.indexOf("Exit codes:"));
    expect(sorted(new Set(line.match(/\b\d{1,3}\b/g)!.filter((n) => codes.includes(n))))).toEqual(codes);
    for (const code of codes) expect(line).toMatch(new RegExp(`\\b${code}\\b`));
  });
});

describe("environment variables: the README's table and what src/config reads agree", () => {
  const dir = join(ROOT, "src", "config");
  // The start-up trace is the one reader outside src/config: it must be on before the config is read.
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f))
    .concat(join(ROOT, "src", "runtime", "startup-trace.ts"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  /** Names src/config reads: `env.NAME`, `env["NAME"]`, or a reader helper given `(env, "NAME", …)`. */
  const read = new Set(
    [...sources.matchAll(/\benv(?:\.|\[\s*")([A-Z][A-Z0-9_]+)|\w+\(env,\s*"([A-Z][A-Z0-9_]+)"/g)].map(
      (m) => m[1] ?? m[2]!,
    ),
  );
  const rows = tableRows(section("## Environment variables"));
  /** Each row's names (one row may hold two: `A`, `B`) with its default cell split the same way. */
  const table = new Map<string, string>();
  for (const [names, defaults] of rows) {
    const list = [...names!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!);
    const values = list.length > 1 ? defaults!.split(/,\s*/) : [defaults!];
    list.forEach((name, i) => table.set(name, values[i] ?? ""));
  }

  test("every SYNAPSE_* variable src/config reads has a row, and every row names a variable it reads", () => {
    expect(read.size).toBeGreaterThan(30);
    const synapse = [...read].filter((n) => n.startsWith("SYNAPSE_"));
    expect({
      undocumented: sorted(synapse.filter((n) => !table.has(n))),
      notRead: sorted([...table.keys()].filter((n) => !read.has(n))),
    }).toEqual({ undocumented: [], notRead: [] });
  });

  test("a numeric default in the table is the default the code uses", () => {
    // `int(env, "NAME", 8 * 1024 * 1024, …)`: the default as the code writes it, evaluated.
    const defaults = new Map<string, number>();
    for (const m of sources.matchAll(/\w+\(env,\s*"([A-Z][A-Z0-9_]+)",\s*(?:file\.\w+\s*\?\?\s*)?([\d_ *]+)[,)]/g)) {
      defaults.set(
        m[1]!,
        m[2]!.split("*").reduce((product, factor) => product * Number(factor.trim().replaceAll("_", "")), 1),
      );
    }
    expect(defaults.size).toBeGreaterThan(20);
    const differing = [...defaults]
      .filter(([name]) => /^\d+$/.test(table.get(name) ?? ""))
      .filter(([name, value]) => Number(table.get(name)) !== value)
      .map(([name, value]) => `${name}: README ${table.get(name)}, code ${value}`);
    expect(differing).toEqual([]);
  });
});

test("commands the README gives need nothing but `npm install`: bun and deno through npx, bench files that exist", () => {
  // A bare `bun …` or `deno …` needs a global install; `npx` runs the devDependency's binary.
  const bareCommands = (text: string) =>
    [...text.matchAll(/(?:^|[`(])((?:npx )?(?:bun|deno) (?:bench\/[^\s`]+|run )[^`\n]*)/gm)]
      .map((m) => m[1]!)
      .filter((c) => !c.startsWith("npx "));
  expect(bareCommands("see `bun bench/shell.ts` and\ndeno run -A x.ts")).toEqual([
    "bun bench/shell.ts",
    "deno run -A x.ts",
  ]);
  expect(bareCommands(README)).toEqual([]);
  const benches = [...README.matchAll(/npx bun (bench\/[\w-]+\.ts)/g)].map((m) => m[1]!);
  expect(benches.length).toBeGreaterThan(3);
  for (const file of benches) expect(readdirSync(join(ROOT, "bench"))).toContain(file.slice("bench/".length));
  expect(README).toContain("npx deno run --no-config");
});
