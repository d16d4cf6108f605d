// Command-line parsing: table of argument vectors and what they mean.
import { describe, expect, test } from "bun:test";
import { parseCommandLine } from "../../src/cli/args.ts";
import { UsageError } from "../../src/protocol/errors.ts";

describe("parseCommandLine", () => {
  test.each([
    [["--help"], { kind: "help" }],
    [["-v"], { kind: "version" }],
    [["sessions"], { kind: "sessions" }],
    [["--list-sessions"], { kind: "sessions" }],
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
    const { flags } = parseCommandLine(["-m", "openai/gpt-4o", "-o", "json", "-C", "/tmp", "--max-turns", "3", "-q", "--no-color", "-y", "x"]);
    expect(flags).toEqual({ model: "openai/gpt-4o", outputFormat: "json", cwd: "/tmp", maxTurns: "3", quiet: true, noColor: true, permissionMode: "bypass" });
  });

  test.each([[["--nope"]], [["-c", "-r", "x"]], [["-o"]], [["sessions", "extra"]], [["-y", "--permission-mode", "plan"]], [["-r", ""]], [["-r", "  "]]])("%j is a usage error", (argv) => {
    expect(() => parseCommandLine([...argv])).toThrow(UsageError);
  });
});
