// The Agent SDK's flags: honoured ones become Synapse's rules and mode, ignored ones a note each,
// refused ones a usage error (exit 2), never a permission flag ignored.

import { describe, expect, test } from "bun:test";
import { parseCommandLine } from "../../src/cli/args.ts";
import { IGNORED, REFUSED, ruleList } from "../../src/cli/sdk-flags.ts";

const run = (argv: string[]) => {
  const parsed = parseCommandLine(argv);
  if (parsed.command.kind !== "run") throw new Error("not a run");
  return { flags: parsed.flags, sdk: parsed.command.sdk! };
};

describe("ruleList", () => {
  const table: [string[], string[]][] = [
    [["Read,Write"], ["Read", "Write"]],
    [["Bash(git log:*),Read"], ["Bash(git log:*)", "Read"]],
    [
      ["Bash(a, b)", "Grep"],
      ["Bash(a, b)", "Grep"],
    ],
    [["Read Write"], ["Read", "Write"]],
    [[""], []],
  ];
  for (const [input, rules] of table) test(JSON.stringify(input), () => expect(ruleList(input)).toEqual(rules));
});

describe("the SDK's command line", () => {
  test("what query() passes by default parses, stream-json in and out", () => {
    const { flags, sdk } = run(["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"]);
    expect(flags.outputFormat).toBe("stream-json");
    expect(sdk).toMatchObject({ inputFormat: "stream-json", promptTool: false, allowBypass: false, notes: [] });
  });

  test("permission flags: Claude Code's mode names, rules from --allowedTools/--disallowedTools/--tools", () => {
    const { flags, sdk } = run([
      "--permission-mode",
      "acceptEdits",
      "--permission-prompt-tool=stdio",
      "--allowedTools",
      "Bash(npm test),WebFetch",
      "--disallowedTools",
      "Write(secret/**),WebSearch",
      "--tools",
      "Read,Grep",
      "x",
    ]);
    expect(flags.permissionMode).toBe("accept-edits");
    expect(flags.allow).toEqual(["Bash(npm test)"]);
    expect(flags.deny).toEqual(["Write(secret/**)", "Bash", "Write", "Edit", "Glob"]);
    expect(sdk.promptTool).toBe(true);
    expect(sdk.notes).toEqual(["synapse: note: --allowedTools: no such tool here: WebFetch"]);
  });

  test("dontAsk is default with nobody asked", () => {
    const { flags, sdk } = run(["--permission-mode", "dontAsk", "x"]);
    expect(flags.permissionMode).toBe("default");
    expect(sdk.dontAsk).toBe(true);
  });

  for (const name of Object.keys(REFUSED))
    test(`--${name} is refused`, () => {
      const value = ["fork-session", "no-session-persistence", "managed-settings-in-initialize"].includes(name)
        ? []
        : ["v"];
      expect(() => parseCommandLine([`--${name}`, ...value, "x"])).toThrow(`--${name} is refused`);
    });

  test("a permission prompt tool other than stdio is refused", () => {
    expect(() => parseCommandLine(["--permission-prompt-tool", "mcp__auth__ask", "x"])).toThrow("permission flag");
  });

  test("each ignored flag is one note", () => {
    const booleans = new Set(["debug", "include-hook-events", "session-mirror"]);
    const argv = IGNORED.flatMap((name) => (booleans.has(name) ? [`--${name}`] : [`--${name}`, "v"]));
    expect(run([...argv, "x"]).sdk.notes).toHaveLength(IGNORED.length);
  });
});
