// `/compact [--keep-last N] [focus]`: options before the focus, unknown options refused (never taken
// as focus text), `--` ends the options. Pure, table-driven.
import { expect, test } from "bun:test";
import { parseCompactArgs } from "../../src/executor/commands/compact.ts";

const cases: Array<[string, ReturnType<typeof parseCompactArgs>]> = [
  ["", {}],
  ["keep the API design", { focus: "keep the API design" }],
  ["--keep-last 5", { keepLast: 5 }],
  ["--keep-last=0", { keepLast: 0 }],
  ["--keep-last 3 keep the API design", { keepLast: 3, focus: "keep the API design" }],
  ["  --keep-last   2   spaced  ", { keepLast: 2, focus: "spaced" }],
  ["-- --keep-last 5", { focus: "--keep-last 5" }],
  ["focus with --keep-last 5 later", { focus: "focus with --keep-last 5 later" }],
  [
    "--keep-last",
    { error: '/compact: --keep-last needs a whole number of turns, got "" (usage: /compact [--keep-last N] [focus])' },
  ],
  [
    "--keep-last five",
    {
      error:
        '/compact: --keep-last needs a whole number of turns, got "five" (usage: /compact [--keep-last N] [focus])',
    },
  ],
  [
    "--keep-last -1",
    {
      error: '/compact: --keep-last needs a whole number of turns, got "-1" (usage: /compact [--keep-last N] [focus])',
    },
  ],
  ["--keep 5", { error: "/compact: unknown option --keep (usage: /compact [--keep-last N] [focus])" }],
  ["--focus api", { error: "/compact: unknown option --focus (usage: /compact [--keep-last N] [focus])" }],
];

for (const [args, expected] of cases) {
  test(`/compact ${args || "(nothing)"}`, () => {
    expect(parseCompactArgs(args)).toEqual(expected);
  });
}
