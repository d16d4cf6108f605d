// What the live row of a streamed answer shows while a line is still arriving: pure.
import { describe, expect, test } from "bun:test";
import { MarkdownStream } from "../../src/render/markdown-stream.ts";
import { makeTheme } from "../../src/render/theme.ts";

const theme = makeTheme(false);

describe("MarkdownStream.live while a line arrives", () => {
  const cases: Array<[string, string, string[]]> = [
    ["a closing fence: no backticks for a moment", "```ts\nconst a = 1;\n```", []],
    ["half a closing fence", "```ts\nconst a = 1;\n``", []],
    ["an opening fence", "Code:\n```t", []],
    ["code that starts with backticks is shown once it is more", "```md\n``x", ["``x"]],
    ["inline code is text", "`a`", ["a"]],
    ["a table row joins its table", "| h | i |\n|---|---|\n| 1 | 2", ["h │ i", "──┼──", "1 │ 2"]],
    ["a row of a table inside code stays code", "```\n| h |", ["| h |"]],
  ];
  for (const [name, text, want] of cases)
    test(name, () => {
      const md = new MarkdownStream(theme, () => 40);
      md.push(text);
      expect(md.live().map((r) => r.trimEnd())).toEqual(want);
    });
});
