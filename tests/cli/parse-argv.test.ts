// parse-argv.ts against the node:util parseArgs it stands in for (strict, positionals allowed), on
// synapse's own options: the same values and positionals, or the same error message.
import { describe, expect, test } from "bun:test";
import { parseArgs } from "node:util";
import { OPTIONS } from "../../src/cli/args.ts";
import { parseArgv } from "../../src/cli/parse-argv.ts";

function outcome(run: () => { values: object; positionals: string[] }) {
  try {
    const { values, positionals } = run();
    return { values: { ...values }, positionals };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const CORPUS: string[][] = [
  [],
  ["hello world"],
  ["-p", "x"],
  ["-m", "claude-sonnet-4-5", "fix it"],
  ["-mclaude", "go"],
  ["--model", "x", "--model", "y"],
  ["--model=x=y"],
  ["--model"],
  ["-m"],
  ["--model", "-x"],
  ["-m", "-x"],
  ["-m", "-"],
  ["--model", "--"],
  ["--model=-x"],
  ["-yq", "task"],
  ["-yqm", "opus"],
  ["-yqmopus"],
  ["-qy", "-c"],
  ["-yz"],
  ["-z"],
  ["--nope"],
  ["--nope=1"],
  ["--quiet=1"],
  ["--quiet=", "x"],
  ["-q1"],
  ["--allow", "Bash(ls)", "--allow", "Read", "--deny=Write"],
  ["--add-dir", "/a", "--add-dir=/b", "-C", "/c"],
  ["--", "-y", "--model", "x"],
  ["a", "--", "b"],
  ["-", "x"],
  ["--max-turns", "-1"],
  ["--max-turns=-1"],
  ["-r", "", "x"],
  ["--resume", "abc", "-c"],
  ["--__proto__", "x"],
  ["--constructor"],
  ["--image", "a.png", "--image", "b.png", "look"],
  ["--allowedTools", "Bash", "--disallowedTools=Write", "--input-format", "stream-json"],
  ["--verbose", "--include-partial-messages", "-o", "stream-json"],
  ["-o"],
  ["-ojson", "x"],
  ["--output-format", "json", "--no-color", "--", "--help"],
  ["-h"],
  ["-vh"],
  ["sessions", "--all"],
  ["compact", "--session", "id", "--dry-run", "--older-than", "7d"],
  ["---x"],
  ["--=x"],
  ["--="],
  ["-=x"],
  ["-ym", "-x"],
  ["-ym"],
  ["-ym", "opus", "go"],
  ["-yqm", "-x"],
  ["-ymx"],
  ["-yzq"],
  ["-zy"],
  ["-z=x"],
  ["-y=x"],
  ["-m=x"],
  ["-ym=x"],
  ["-ycm", "x", "-r", "id"],
];

describe("parseArgv matches node:util parseArgs", () => {
  for (const argv of CORPUS) {
    test(JSON.stringify(argv), () => {
      const ours = outcome(() => parseArgv(argv, OPTIONS));
      const theirs = outcome(() => parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
      expect(ours).toEqual(theirs);
    });
  }
});
