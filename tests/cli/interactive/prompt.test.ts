// The prompt editor, the key decoder, completion, history file, and the view's block commits.

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commonPrefix, complete } from "../../../src/cli/interactive/completion.ts";
import { HistoryFile } from "../../../src/cli/interactive/history-file.ts";
import { KeyDecoder } from "../../../src/cli/interactive/key-decoder.ts";
import { PromptEditor } from "../../../src/cli/interactive/prompt-editor.ts";
import { MarkdownStream } from "../../../src/render/markdown-stream.ts";
import { makeTheme } from "../../../src/render/theme.ts";

describe("KeyDecoder", () => {
  test("text, enter, control keys, arrows, alt-arrows, lone ESC, Shift+Enter", () => {
    const d = new KeyDecoder();
    expect(d.feed("hi\r")).toEqual([{ kind: "text", text: "hi" }, { kind: "enter" }]);
    expect(d.feed("\x01\x0b\x7f")).toEqual([
      { kind: "ctrl", name: "a" },
      { kind: "ctrl", name: "k" },
      { kind: "backspace" },
    ]);
    expect(d.feed("\x1b[A\x1b[1;3D\x1bf")).toEqual([
      { kind: "move", to: "up" },
      { kind: "move", to: "word-left" },
      { kind: "move", to: "word-right" },
    ]);
    expect(d.feed("\x1b")).toEqual([{ kind: "esc" }]);
    expect(d.feed("\x1b[13;2u\x1b\r")).toEqual([{ kind: "newline" }, { kind: "newline" }]);
  });
  test("a bracketed paste across several reads is one key, newlines kept", () => {
    const d = new KeyDecoder();
    expect(d.feed("\x1b[200~line 1\r\nli")).toEqual([]);
    expect(d.feed("ne 2\x1b[201~x")).toEqual([
      { kind: "paste", text: "line 1\nline 2" },
      { kind: "text", text: "x" },
    ]);
  });
});

describe("PromptEditor", () => {
  test("line editing keys", () => {
    const e = new PromptEditor();
    e.insert("hello big world");
    e.deleteWordBack();
    expect(e.text).toBe("hello big ");
    e.lineStart();
    e.wordRight();
    e.killToEnd();
    expect(e.text).toBe("hello");
    e.insert(" there");
    e.wordLeft();
    e.killToStart();
    expect([e.text, e.cursor]).toEqual(["there", 0]);
  });
  test("a large paste is a placeholder, expanded on submit; backspace removes it whole", () => {
    const e = new PromptEditor();
    const big = Array.from({ length: 120 }, (_, i) => `l${i}`).join("\n");
    e.insert("see: ");
    e.paste(big);
    expect(e.text).toBe("see: [pasted 120 lines]");
    expect(e.take()).toBe(`see: ${big}`);
    e.paste(big);
    e.backspace();
    expect(e.text).toBe("");
  });
  test("history: ↑ recalls, ↓ returns to the draft; multi-line moves lines first", () => {
    const e = new PromptEditor(["first", "second"]);
    e.insert("draft");
    e.up();
    expect(e.text).toBe("second");
    e.up();
    expect(e.text).toBe("first");
    e.down();
    e.down();
    expect(e.text).toBe("draft");
    const m = new PromptEditor(["old"]);
    m.insert("a\nb");
    m.up();
    expect([m.text, m.cursor]).toEqual(["a\nb", 1]);
  });
  test("layout wraps and places the caret", () => {
    const e = new PromptEditor();
    e.insert("abcdefgh\nij");
    expect(e.layout(5)).toEqual({ rows: ["abcde", "fgh", "ij"], row: 2, col: 2 });
  });
  test("a pasted tab or control character takes one column, so the caret stays where the text ends", () => {
    const e = new PromptEditor();
    e.insert("if x:\tgo\x7f\u009bZ");
    const l = e.layout(40);
    expect(l.rows).toEqual(["if x: go??Z"]);
    expect(l.col).toBe(11);
    expect(e.text).toBe("if x:\tgo\x7f\u009bZ"); // sent as typed
  });
});

describe("completion", () => {
  test("slash commands and @paths", () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-complete-"));
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "main.ts"), "");
    writeFileSync(join(dir, "src", "map.ts"), "");
    writeFileSync(join(dir, ".hidden"), "");
    expect(complete("/mo", 3, dir, ["model", "help"])).toEqual({ from: 0, to: 3, candidates: ["/model "] });
    expect(complete("look at @s", 10, dir, [])?.candidates).toEqual(["@src/"]);
    const c = complete("@src/ma", 7, dir, [])!;
    expect(c.candidates).toEqual(["@src/main.ts ", "@src/map.ts "]);
    expect(commonPrefix(c.candidates)).toBe("@src/ma");
    expect(complete("@", 1, dir, [])?.candidates).toEqual(["@src/"]);
    expect(complete("plain", 5, dir, [])).toBeUndefined();
  });
});

describe("HistoryFile", () => {
  test("keeps multi-line entries, skips a torn line", () => {
    const home = mkdtempSync(join(tmpdir(), "synapse-history-"));
    const h = new HistoryFile(home);
    h.append("one");
    h.append("two\nlines");
    appendFileSync(h.path, '"torn');
    expect(new HistoryFile(home).load()).toEqual(["one", "two\nlines"]);
  });
});

describe("MarkdownStream", () => {
  const theme = makeTheme(false);
  test("commits each finished line, keeps the unfinished one live, tracks fences and tables", () => {
    const md = new MarkdownStream(theme, () => 60);
    expect(md.push("# Ti")).toEqual([]);
    expect(md.live()).toEqual(["Ti"]);
    expect(md.push("tle\n\nSome **bo")).toEqual(["Title", ""]);
    expect(md.push("ld** text\n- a\n  - b\n```ts\nconst x = 1;\n")).toEqual([
      "Some bold text",
      "• a",
      "  • b",
      "  ts",
      "const x = 1;",
    ]);
    expect(md.push("```\n| h | i |\n|---|---|\n| 1 | 2 |\n")).toEqual([]);
    expect(md.live()[0]).toStartWith("h │ i");
    expect(md.end().some((r) => r.startsWith("1 │ 2"))).toBe(true);
  });
  test("a very long unfinished line is committed as it grows, not re-rendered", () => {
    const md = new MarkdownStream(theme, () => 40);
    const rows = md.push("word ".repeat(1000));
    expect(rows.length).toBeGreaterThan(100);
    expect(md.live().length).toBe(1);
  });
});

describe("completion of @paths: many files, spaces, fuzzy", () => {
  test("every candidate counts for the common prefix (none cut at 50); spaces quoted; letters in order match", () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-complete-"));
    mkdirSync(join(dir, "many"));
    for (let i = 0; i < 60; i++) writeFileSync(join(dir, "many", `file${String(i).padStart(2, "0")}.txt`), "");
    writeFileSync(join(dir, "many", "zeta.txt"), "");
    const many = complete("@many/", 6, dir, [])!;
    expect(many.candidates).toHaveLength(61);
    // Cut at 50 the prefix would have been "@many/file": wrong, zeta.txt is there too.
    expect(commonPrefix(many.candidates)).toBe("@many/");
    mkdirSync(join(dir, "my docs"));
    writeFileSync(join(dir, "my docs", "read me.md"), "");
    expect(complete("@my", 3, dir, [])!.candidates).toEqual(['@"my docs/']);
    const inside = complete('@"my docs/re', 12, dir, [])!;
    expect(inside).toEqual({ from: 0, to: 12, candidates: ['@"my docs/read me.md" '] });
    expect(complete("@many/zt", 8, dir, [])!.candidates).toEqual(["@many/zeta.txt "]);
  });
});
