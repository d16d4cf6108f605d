// A `!command`'s output rows under its tool row: pure.
import { describe, expect, test } from "bun:test";
import { SHOWN_CALL_LINES, SHOWN_COMMAND_LINES, commandOutputRows } from "../../src/render/command-output.ts";
import { makeTheme } from "../../src/render/theme.ts";

const plain = makeTheme(false);
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}`).join("\n");

describe("commandOutputRows", () => {
  const cases: Array<[string, string, number, number, string[]]> = [
    ["one line", "hello\n", 1, 40, ["  ⎿ hello"]],
    ["a few lines, all shown", "a\nb\nc\n", 3, 40, ["  ⎿ a", "    b", "    c"]],
    [
      "more than shown: the true count of the rest",
      numbered(12),
      12,
      40,
      ["  ⎿ l1", ...Array.from({ length: 9 }, (_, i) => `    l${i + 2}`), "    … +2 lines (ctrl+o to expand)"],
    ],
    [
      "output cut short: the count is the command's",
      numbered(10),
      5000,
      40,
      ["  ⎿ l1", ...Array.from({ length: 9 }, (_, i) => `    l${i + 2}`), "    … +4990 lines (ctrl+o to expand)"],
    ],
    ["a long line is cut, not wrapped", "x".repeat(30), 1, 12, ["  ⎿ xxxxxxx…"]],
    ["escapes are made visible", "\x1b[2Jboom", 1, 40, ["  ⎿ ␛[2Jboom"]],
  ];
  for (const [name, output, total, width, want] of cases)
    test(name, () => expect(commandOutputRows(output, total, width, plain)).toEqual(want));
  test("a model's call: three lines, then the count", () => {
    expect(commandOutputRows(numbered(20), 20, 40, plain, SHOWN_CALL_LINES)).toEqual([
      "  ⎿ l1",
      "    l2",
      "    l3",
      "    … +17 lines (ctrl+o to expand)",
    ]);
  });
  test("shows at most SHOWN_COMMAND_LINES lines", () => {
    expect(commandOutputRows(numbered(50), 50, 40, plain)).toHaveLength(SHOWN_COMMAND_LINES + 1);
  });
});
