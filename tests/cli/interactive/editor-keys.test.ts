// The editor's grapheme steps, ↑/↓ over wrapped rows, unbracketed pastes (pure: no terminal).

import { describe, expect, test } from "bun:test";
import { BURST_GAP_MS, KeyDecoder, isBurst } from "../../../src/cli/interactive/key-decoder.ts";
import { PromptEditor } from "../../../src/cli/interactive/prompt-editor.ts";
import { editPrompt } from "../../../src/cli/interactive/prompt-keys.ts";

const typed = (text: string, cursor = text.length) => {
  const e = new PromptEditor();
  e.insert(text);
  e.cursor = cursor;
  return e;
};

describe("graphemes", () => {
  test.each([
    ["skin tone", "a👍🏽"],
    ["flag", "a🇫🇷"],
    ["family (ZWJ)", "a👨‍👩‍👧"],
    ["combining accent", "ae\u0301"],
    ["keycap", "a1️⃣"],
  ])("%s: Left then a letter does not split it; Backspace removes it whole", (_, text) => {
    const e = typed(text);
    e.left();
    expect(e.cursor).toBe(1);
    e.insert("x");
    expect(e.text).toBe(`ax${text.slice(1)}`);
    const b = typed(text);
    b.backspace();
    expect(b.text).toBe("a");
    const d = typed(text, 1);
    d.deleteForward();
    expect(d.text).toBe("a");
    d.insert("z");
    d.left();
    d.right();
    expect(d.cursor).toBe(2);
  });
  test("a grapheme is drawn as the columns the terminal gives it, so the caret lands after it", () => {
    expect(typed("a👍🏽").layout(40)).toEqual({ rows: ["a👍🏽"], row: 0, col: 3 });
  });
});

describe("↑/↓ on a wrapped draft", () => {
  test("↑ moves up a drawn row, keeping the column, before it reaches history", () => {
    const e = new PromptEditor(["older prompt"]);
    e.insert("0123456789abcdefghij"); // 20 columns at width 8: rows of 8, 8, 4
    e.layout(8);
    e.cursor = 18; // row 2, column 2
    e.up();
    expect(e.cursor).toBe(10);
    e.up();
    expect(e.cursor).toBe(2);
    e.up();
    expect(e.text).toBe("older prompt");
    e.down();
    expect(e.text).toBe("0123456789abcdefghij");
  });
  test("↓ from the first row of a wrapped line goes to the row below, not to history", () => {
    const e = new PromptEditor(["older"]);
    e.insert("0123456789abcdefghij");
    e.layout(8);
    e.cursor = 3;
    e.down();
    expect(e.cursor).toBe(11);
    e.down();
    expect(e.cursor).toBe(19);
  });
  test("logical lines still step as before", () => {
    const e = typed("ab\ncdef");
    e.layout(80);
    e.up();
    expect(e.cursor).toBe(2);
  });
});

describe("pastes", () => {
  test("one long line is `[pasted 1 line]`, a trailing newline is not counted", () => {
    const e = new PromptEditor();
    e.paste("x".repeat(900));
    expect(e.text).toBe("[pasted 1 line]");
    e.clear();
    e.paste("a\nb\nc\n");
    expect(e.text).toBe("[pasted 3 lines]");
    expect(e.take()).toBe("a\nb\nc\n");
  });
  test("a paste in pieces is joined into one", () => {
    const e = new PromptEditor();
    e.insert("see: ");
    e.paste("one\ntwo");
    e.paste("\nthree\nfour\n", true);
    expect(e.text).toBe("see: [pasted 4 lines]");
    expect(e.take()).toBe("see: one\ntwo\nthree\nfour\n");
  });
});

describe("a paste without bracketed-paste markers", () => {
  test.each([
    ["line 1\rline 2", true],
    ["line 1\rline 2\r", true],
    ["a\nb", true],
    ["hello\r", false],
    ["hello", false],
    ["\r\r", false],
    ["\rnext", false],
    ["x\x1b[A\ry", false],
  ])("%j is a burst: %p", (chunk, want) => {
    expect(isBurst(chunk)).toBe(want);
  });
  test("lines and Enters in one read are one paste, not several prompts; the rest of it follows", () => {
    const d = new KeyDecoder();
    expect(d.feed("first line\rsecond line\r", 1000)).toEqual([{ kind: "paste", text: "first line\nsecond line\n" }]);
    expect(d.feed("third\r", 1000 + BURST_GAP_MS)).toEqual([{ kind: "paste", text: "third\n", continues: true }]);
    // Later, a typed line and Enter are keys again.
    expect(d.feed("go\r", 2000)).toEqual([{ kind: "text", text: "go" }, { kind: "enter" }]);
    const e = new PromptEditor();
    for (const key of [...new KeyDecoder().feed("a\rb\rc\r", 0)]) editPrompt(e, key);
    expect(e.text).toBe("[pasted 3 lines]");
  });
});

describe("kitty keyboard protocol keys", () => {
  test("CSI u keys decode as the legacy ones; Shift/Alt/Ctrl+Enter are a new line", async () => {
    const { KeyDecoder: Decoder, csiUKey } = await import("../../../src/cli/interactive/key-decoder.ts");
    const table: [string, unknown][] = [
      ["\x1b[27u", { kind: "esc" }],
      ["\x1b[13u", { kind: "enter" }],
      ["\x1b[13;2u", { kind: "newline" }],
      ["\x1b[13;3u", { kind: "newline" }],
      ["\x1b[99;5u", { kind: "ctrl", name: "c" }],
      ["\x1b[100;5u", { kind: "ctrl", name: "d" }],
      ["\x1b[106;5u", { kind: "newline" }],
      ["\x1b[9;2u", { kind: "back-tab" }],
      ["\x1b[127;3u", { kind: "delete-word-back" }],
      ["\x1b[100;3u", { kind: "delete-word-forward" }],
      ["\x1b[98;3u", { kind: "move", to: "word-left" }],
      ["\x1b[97;2u", { kind: "text", text: "A" }],
    ];
    for (const [seq, want] of table)
      expect([JSON.stringify(seq), new Decoder().feed(seq)] as unknown[]).toEqual([JSON.stringify(seq), [want]]);
    expect(csiUKey("\x1b[1;5D")).toBeUndefined();
  });
});
