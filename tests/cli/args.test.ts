// Command-line parsing: table of argument vectors and what they mean.
import { describe, expect, test } from "bun:test";
import { parseArgs } from "node:util";
import { OPTIONS, parseCommandLine, parseWords } from "../../src/cli/args.ts";
import { UsageError } from "../../src/protocol/errors.ts";

describe("parseCommandLine", () => {
  test.each([
    [["--help"], { kind: "help" }],
    [["-v"], { kind: "version" }],
    [["sessions"], { kind: "sessions", all: false }],
    [["sessions", "--all"], { kind: "sessions", all: true }],
    [["--list-sessions"], { kind: "sessions", all: false }],
    [["doctor"], { kind: "doctor" }],
    [["fix", "the", "bug"], { kind: "run", prompt: "fix the bug", images: [] }],
    [["--", "doctor"], { kind: "run", prompt: "doctor", images: [] }],
    [["-c", "go"], { kind: "run", prompt: "go", resume: { latest: true }, images: [] }],
    [["-r", "abc"], { kind: "run", prompt: undefined, resume: { id: "abc" }, images: [] }],
    [["--image", "a.png", "--image", "b.png", "x"], { kind: "run", prompt: "x", images: ["a.png", "b.png"] }],
    [[], { kind: "run", prompt: undefined, images: [] }],
  ] as const)("%j", (argv, expected) => {
    expect(parseCommandLine([...argv]).command).toEqual(expected as any);
  });

  test("flags feed configuration", () => {
    const { flags } = parseCommandLine([
      "-m",
      "openai/gpt-4o",
      "-o",
      "json",
      "-C",
      "/tmp",
      "--max-turns",
      "3",
      "-q",
      "--no-color",
      "-y",
      "x",
    ]);
    expect(flags).toEqual({
      model: "openai/gpt-4o",
      outputFormat: "json",
      cwd: "/tmp",
      maxTurns: "3",
      quiet: true,
      noColor: true,
      permissionMode: "bypass",
    });
  });

  test.each([
    [["--nope"]],
    [["-c", "-r", "x"]],
    [["-o"]],
    [["sessions", "extra"]],
    [["-y", "--permission-mode", "plan"]],
    [["-r", ""]],
    [["-r", "  "]],
  ])("%j is a usage error", (argv) => {
    expect(() => parseCommandLine([...argv])).toThrow(UsageError);
  });
});

describe("what parseArgs refuses, in one clear line", () => {
  test.each([
    [["--max-turns", "-1"], '--max-turns takes a positive number (got "-1")'],
    [["-m", "-x", "hi"], '-m needs a value ("-x" looks like an option; write -m-x if it is the value)'],
    [["--max-turns"], "--max-turns needs a value"],
    [["-o"], "--output-format needs a value"],
    [["--nope"], "unknown option --nope (synapse --help lists them)"],
  ] as const)("%j", (argv, message) => {
    let thrown: unknown;
    try {
      parseCommandLine([...argv]);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toBe(message);
  });
});

describe("synapse compact", () => {
  test.each([
    [["compact"], { kind: "compact", all: false, dryRun: false }],
    [["compact", "--all", "--dry-run"], { kind: "compact", all: true, dryRun: true }],
    [
      ["compact", "--session", " 2026 ", "--older-than", "1.5"],
      { kind: "compact", session: "2026", all: false, olderThanDays: 1.5, dryRun: false },
    ],
  ])("%j", (argv, command) => {
    const { command: got } = parseCommandLine(argv as string[]);
    expect(JSON.parse(JSON.stringify(got))).toEqual(command);
  });

  test.each([
    [["compact", "--all", "--session", "x"], "--session and --all cannot be used together"],
    [["compact", "--older-than", "-1"], '--older-than takes a positive number (got "-1")'],
    [["compact", "--older-than", "1e3"], 'needs a number of days greater than 0 (got "1e3")'],
    [["compact", "--session", " "], "--session needs a session id (see synapse sessions)"],
    [["--older-than", "3", "hi"], "--older-than is an option of synapse compact"],
    [["doctor", "--dry-run"], "--dry-run is an option of synapse compact"],
  ])("%j is a usage error", (argv, message) => {
    expect(() => parseCommandLine(argv as string[])).toThrow(UsageError);
    expect(() => parseCommandLine(argv as string[])).toThrow(message);
  });
});

describe("parseWords: a command line without options skips node:util", () => {
  // What parseArgs itself answers for each, with the same options: the shortcut must agree exactly.
  const real = (argv: string[]) => parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  test.each([
    [[]],
    [["fix the bug"]],
    [["fix", "the", "bug"]],
    [["doctor"]],
    [["compact"]],
    [["sessions"]],
    [["review", "this", "diff—ünïcode 🎉"]],
    [["a=b", "x+y", "--"].slice(0, 2)],
    [[""]],
    [[" ", "\t-x"]],
  ])("%j", (argv) => {
    const words = parseWords(argv);
    const expected = real([...argv]);
    expect({ values: { ...words.values }, positionals: words.positionals }).toEqual({
      values: { ...expected.values },
      positionals: expected.positionals,
    });
  });

  test("a word starting with a dash goes to parseArgs (its errors included)", () => {
    expect(parseWords(["-y", "go"]).values.yes).toBe(true);
    expect(parseWords(["-"]).positionals).toEqual(real(["-"]).positionals);
    expect(() => parseWords(["--no-such-flag"])).toThrow(UsageError);
  });
});
