// A listing's line (/help, /status) wrapped on a narrow terminal: pure. Spaces at a break stay
// (wrapLine keeps them, so copied text keeps its words apart).
import { describe, expect, test } from "bun:test";
import { wrapListing } from "../../src/render/text-width.ts";

describe("wrapListing", () => {
  const cases: Array<[string, string, number, string[]]> = [
    ["fits: as it is", "  /help   list the commands", 40, ["  /help   list the commands"]],
    [
      "two columns: under the second",
      "  /model [name]   list the models, or switch to one",
      36,
      ["  /model [name]   list the models, ", "                  or switch to one"],
    ],
    ["key: value", "version:  synapse 0.1.0 (build 1234)", 24, ["version:  synapse 0.1.0 ", "          (build 1234)"]],
    [
      "a first column too wide: under the line's indent",
      "  /rewind [n [all|conversation|code]]  go back",
      30,
      ["  /rewind [n ", "  [all|conversation|code]]  go", "  back"],
    ],
    ["no indent, one column: as wrapLine", "plain words that wrap here", 12, ["plain words ", "that wrap ", "here"]],
  ];
  for (const [name, line, width, want] of cases) test(name, () => expect(wrapListing(line, width)).toEqual(want));
});
