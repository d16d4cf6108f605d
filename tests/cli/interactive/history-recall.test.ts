// ↑ through history past a big paste sent before: it comes back as one row, sent whole.
import { expect, test } from "bun:test";
import { PromptEditor } from "../../../src/cli/interactive/prompt-editor.ts";

const fifty = Array.from({ length: 50 }, (_, i) => `row ${i + 1}`).join("\n");

test("a tall entry comes back as its label; ↑ again reaches the one before; Enter sends it whole", () => {
  const e = new PromptEditor(["older prompt", `see ${fifty}`, "three\nshort\nlines"]);
  e.layout(80);
  e.up();
  expect(e.text).toBe("three\nshort\nlines"); // short enough to edit as it is
  e.up();
  e.up();
  e.up();
  expect(e.text).toBe("[pasted 50 lines]");
  e.up();
  expect(e.text).toBe("older prompt");
  e.down();
  expect(e.text).toBe("[pasted 50 lines]");
  e.insert(" again");
  expect(e.take()).toBe(`see ${fifty} again`);
});

test("a recalled entry's label never takes the label of a paste in the draft", () => {
  const e = new PromptEditor([fifty]);
  e.paste(Array.from({ length: 50 }, () => "other").join("\n"));
  e.up();
  expect(e.text).toBe("[pasted 50 lines #2]");
  expect(e.take()).toBe(fifty);
});
