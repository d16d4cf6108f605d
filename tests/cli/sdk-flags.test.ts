// The Agent SDK's flags: honoured ones become Synapse's rules and mode, ignored ones a note each,
// refused ones a usage error (exit 2), never a permission flag ignored.

import { describe, expect, test } from "bun:test";
import { parseCommandLine } from "../../src/cli/args.ts";
import { IGNORED, REFUSED, newSessionFlags, ruleList } from "../../src/cli/sdk-flags.ts";

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

describe("newSessionFlags", () => {
  const id = "0f8fad5b-d9cb-469f-a165-70867728950e";
  const table: [Parameters<typeof newSessionFlags>[0], ReturnType<typeof newSessionFlags> | string][] = [
    [{}, { forkSession: false }],
    [{ "session-id": id }, { sessionId: id, forkSession: false }],
    [{ "session-id": id.toUpperCase() }, { sessionId: id, forkSession: false }],
    [{ "session-id": "20261122-171500-ab12cd" }, "must be a UUID"],
    [{ "session-id": `../${id}` }, "must be a UUID"],
    [{ "fork-session": true }, "needs --resume or --continue"],
    [{ "fork-session": true, continue: true }, { forkSession: true }],
    [
      { "fork-session": true, resume: "abc", "session-id": id },
      { sessionId: id, forkSession: true },
    ],
    [{ resume: "abc", "session-id": id }, "needs --fork-session"],
    [{ continue: true, "session-id": id }, "needs --fork-session"],
  ];
  for (const [values, expected] of table)
    test(JSON.stringify(values), () => {
      if (typeof expected === "string") expect(() => newSessionFlags(values)).toThrow(expected);
      else expect(newSessionFlags(values)).toEqual(expected);
    });
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
